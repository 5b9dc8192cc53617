import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedPluralKeys, FALLBACK_LANGUAGE, LANGUAGES, pluralBase, RTL_LANGUAGES } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';

/**
 * English is the source: strings are written in English first, then translated. Every language must have every key of every
 * namespace, keep the same {{placeholders}}, and translate every value: an English value left in place
 * fails, except the few strings that are the same in every language by nature (below).
 */
const LOCALES_DIR = join(import.meta.dirname, '../../public/locales');

/** Values that are legitimately identical to English (brand names, pure placeholders, numbers). */
const IDENTICAL_BY_NATURE = new Set<string>(['Meetcast', 'YouTube', 'Twitch', 'RTMP', 'SSO', 'OK', '404']);

/** Words a language really uses as they are in English (loanwords), per language. Keep this short. */
const LOANWORDS: Partial<Record<string, string[]>> = {
  it: ['Password'],
  de: ['Meeting', 'Meetings'],
};

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flatten(value, path)) flat.set(inner, text);
  }
  return flat;
}

function read(language: string, file: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(join(LOCALES_DIR, language, file), 'utf8')) as Tree);
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*([\w.]+)\s*}}/g)].map((m) => m[1]).sort();

/** Text that has nothing to translate once placeholders, digits and punctuation are removed. */
function isLanguageNeutral(text: string, language: string): boolean {
  if (IDENTICAL_BY_NATURE.has(text.trim()) || LOANWORDS[language]?.includes(text.trim())) return true;
  return !/\p{L}/u.test(text.replace(/{{[^}]*}}/g, ''));
}

const namespaces = readdirSync(join(LOCALES_DIR, FALLBACK_LANGUAGE)).filter((file) => file.endsWith('.json'));

describe('locale files', () => {
  it('has English namespaces to check', () => {
    expect(namespaces.length).toBeGreaterThan(0);
  });

  for (const language of LANGUAGES.filter((lng) => lng !== FALLBACK_LANGUAGE)) {
    describe(language, () => {
      for (const file of namespaces) {
        it(`${file}: every key, translated, same placeholders, every plural form`, () => {
          const english = read(FALLBACK_LANGUAGE, file);
          const translated = read(language, file);
          const expected = expectedPluralKeys(english, language);
          const missing = [...expected.keys()].filter((key) => !translated.has(key));
          const extra = [...translated.keys()].filter((key) => !expected.has(key));
          const untranslated = [...translated].filter(([key, value]) => {
            const text = expected.get(key);
            return text !== undefined && value.trim() === text.trim() && !isLanguageNeutral(text, language);
          });
          const empty = [...translated].filter(([, value]) => value.trim() === '');
          const wrongPlaceholders = [...translated].filter(([key, value]) => {
            const text = expected.get(key);
            if (text === undefined) return false;
            // A plural form may say the number in words ("one contact"), so {{count}} is optional there.
            const optional = pluralBase(key, english) ? ['count'] : [];
            const without = (list: (string | undefined)[]) => list.filter((name) => !optional.includes(name ?? ''));
            return without(placeholders(value)).join() !== without(placeholders(text)).join();
          });
          expect({ missing, extra, untranslated, empty, wrongPlaceholders }).toEqual({
            missing: [],
            extra: [],
            untranslated: [],
            empty: [],
            wrongPlaceholders: [],
          });
        });
      }
    });
  }
});

/**
 * German speaks to the reader one way (formal "Sie") and calls a meeting one thing ("Meeting"), in
 * the app and in the server's messages and mails alike.
 */
describe('German style', () => {
  const SERVER_LOCALES = join(import.meta.dirname, '../../../server/src/i18n/locales/de');
  const texts = [
    ...namespaces.flatMap((file) => [...read('de', file)].map(([key, text]) => [`${file}:${key}`, text] as const)),
    ...readdirSync(SERVER_LOCALES).flatMap((file) =>
      Object.entries(JSON.parse(readFileSync(join(SERVER_LOCALES, file), 'utf8')) as Record<string, string>).map(
        ([key, text]) => [`server/${file}:${key}`, text] as const,
      ),
    ),
  ];

  it('uses "Sie", never "du"', () => {
    const informal = /\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines|hast|bist|kannst|möchtest|musst|wirst)\b/i;
    expect(texts.filter(([, text]) => informal.test(text))).toEqual([]);
  });

  it('says "Meeting", never "Besprechung"', () => {
    expect(texts.filter(([, text]) => /besprechung/i.test(text))).toEqual([]);
  });
});

/**
 * In a right-to-left language every value is isolated (i18n.ts), so Latin letters glued to a value
 * ("{{height}}p") would be drawn on the other side of it ("p720"): such a pair must sit inside a
 * left-to-right isolate (U+2066 … U+2069) of its own.
 */
describe('right-to-left values', () => {
  const gluedToLatin = /{{[^}]*}}[A-Za-z]|[A-Za-z]{{/;
  const outsideIsolates = (text: string) => text.replace(/\u2066[^\u2069]*\u2069/g, '');

  for (const language of RTL_LANGUAGES) {
    it(`${language}: no Latin letters glued to a value outside a left-to-right isolate`, () => {
      const glued = namespaces.flatMap((file) =>
        [...read(language, file)].filter(([, text]) => gluedToLatin.test(outsideIsolates(text))).map(([key]) => key),
      );
      expect(glued).toEqual([]);
    });
  }
});
