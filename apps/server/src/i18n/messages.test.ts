import { readdirSync, readFileSync } from 'node:fs';
import { expectedPluralKeys, FALLBACK_LANGUAGE, LANGUAGES, pluralBase } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { catalogFor, englishCatalog, translate } from './messages.js';

const LOCALES_DIR = new URL('./locales/', import.meta.url);
const TRANSLATED = LANGUAGES.filter((language) => language !== FALLBACK_LANGUAGE);

// Keys whose value may legitimately be the same as in English in some languages: a bare
// "{{field}}: {{reason}}" pattern has no words to translate.
// Values that are the same words in other languages too ("Re:" in mail replies, Italian "Password").
const MAY_EQUAL_ENGLISH = new Set(['validation.field', 'admin.reply_subject', 'meetings.mail_password']);

function jsonFiles(language: string): string[] {
  return readdirSync(new URL(`./${language}/`, LOCALES_DIR))
    .filter((name) => name.endsWith('.json'))
    .sort();
}

function readCatalog(language: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`./${language}/${file}`, LOCALES_DIR), 'utf8')) as Record<string, unknown>;
}

function placeholders(text: string, plural = false): string[] {
  // A plural form may say its number in words ("دقيقتين", two minutes), so {{count}} is optional there.
  return [...text.matchAll(/\{\{(\w+)\}\}/g)]
    .map((match) => match[1] ?? '')
    .filter((name) => !(plural && name === 'count'))
    .sort();
}

/** What a language's catalog is missing or holds beyond English, plural forms by its own plural rules. */
function keyDifference(english: Record<string, unknown>, translated: object, language: string) {
  const source = [...expectedPluralKeys(new Map(Object.entries(english).map(([k, v]) => [k, String(v)])), language).keys()];
  const target = Object.keys(translated);
  return {
    missing: source.filter((key) => !target.includes(key)).sort(),
    extra: target.filter((key) => !source.includes(key)).sort(),
  };
}

const englishFiles = jsonFiles(FALLBACK_LANGUAGE);

describe('server message catalogs', () => {
  it('has an English source file for each feature', () => {
    expect(englishFiles).toEqual(expect.arrayContaining(['accounts.json', 'common.json', 'notifications.json']));
  });

  describe.each(TRANSLATED)('%s', (language) => {
    it('has exactly the same files as English', () => {
      expect(jsonFiles(language)).toEqual(englishFiles);
    });

    it.each(englishFiles)('translates every key of %s, and nothing else', (file) => {
      const english = readCatalog(FALLBACK_LANGUAGE, file);
      const translated = readCatalog(language, file);
      expect(keyDifference(english, translated, language), `${language}/${file}`).toEqual({ missing: [], extra: [] });

      const englishTexts = new Map(Object.entries(english).map(([key, text]) => [key, String(text)]));
      for (const [key, source] of expectedPluralKeys(englishTexts, language)) {
        const value = translated[key];
        const plural = pluralBase(key, englishTexts) !== undefined;
        expect(typeof value, `${language}/${file} ${key}`).toBe('string');
        if (typeof value !== 'string') continue;
        expect(value.trim(), `${language}/${file} ${key} is empty`).not.toBe('');
        if (!MAY_EQUAL_ENGLISH.has(key)) {
          expect(value, `${language}/${file} ${key} is still English`).not.toBe(source);
        }
        expect(placeholders(value, plural), `${language}/${file} ${key} placeholders`).toEqual(placeholders(source, plural));
        expect(value.split('\n').length, `${language}/${file} ${key} line breaks`).toBe(source.split('\n').length);
        if (source.includes('Meetcast')) expect(value, `${language}/${file} ${key} brand`).toContain('Meetcast');
      }
    });

    it('is what the server loads for the language', () => {
      expect(keyDifference(englishCatalog(), catalogFor(language), language)).toEqual({ missing: [], extra: [] });
    });
  });

  it('answers in the requested language and fills in parameters', () => {
    const english = translate('en', 'accounts.login_failed');
    expect(english).toBe('Wrong e-mail address or password.');
    expect(translate('de', 'accounts.login_failed')).not.toBe(english);
    expect(translate('de', 'accounts.login_failed')).toBe(catalogFor('de')['accounts.login_failed']);

    const waiting = translate('fr', 'errors.rate_limited', { count: 42 });
    expect(waiting).toContain('42');
    expect(waiting).not.toContain('{{');
    expect(waiting).not.toBe(translate('en', 'errors.rate_limited', { count: 42 }));
  });

  it('says every English text with a number in the plural form that number takes', () => {
    expect(translate('en', 'admin.users_deleted', { count: 1 })).toBe('1 account deleted.');
    expect(translate('en', 'admin.users_deleted', { count: 3 })).toBe('3 accounts deleted.');
    expect(translate('en', 'errors.rate_limited', { count: 1 })).toBe('Too many attempts. Please try again in 1 second.');
  });

  // Arabic has six plural forms, Polish and Russian four; 1, 2, 5, 11 and 21 fall on different ones.
  it.each([
    ['ar', 1, 'تم حذف حساب واحد.'],
    ['ar', 2, 'تم حذف حسابين.'],
    ['ar', 5, 'تم حذف 5 حسابات.'],
    ['ar', 11, 'تم حذف 11 حسابًا.'],
    ['ar', 21, 'تم حذف 21 حسابًا.'],
    ['pl', 1, 'Usunięto 1 konto.'],
    ['pl', 2, 'Usunięto 2 konta.'],
    ['pl', 5, 'Usunięto 5 kont.'],
    ['pl', 11, 'Usunięto 11 kont.'],
    ['pl', 21, 'Usunięto 21 kont.'],
    ['ru', 1, 'Удалена 1 учётная запись.'],
    ['ru', 2, 'Удалены 2 учётные записи.'],
    ['ru', 5, 'Удалено 5 учётных записей.'],
    ['ru', 11, 'Удалено 11 учётных записей.'],
    ['ru', 21, 'Удалена 21 учётная запись.'],
  ] as const)('%s: %i deleted accounts', (language, count, expected) => {
    expect(translate(language, 'admin.users_deleted', { count })).toBe(expected);
  });

  it.each([
    ['ar', 1, 'دقيقة واحدة'],
    ['ar', 2, 'دقيقتين'],
    ['ar', 5, '5 دقائق'],
    ['ar', 11, '11 دقيقة'],
    ['ar', 21, '21 دقيقة'],
    ['pl', 1, '1 minutę'],
    ['pl', 2, '2 minuty'],
    ['pl', 5, '5 minut'],
    ['pl', 11, '11 minut'],
    ['pl', 21, '21 minut'],
    ['ru', 1, '1 минуту'],
    ['ru', 2, '2 минуты'],
    ['ru', 5, '5 минут'],
    ['ru', 11, '11 минут'],
    ['ru', 21, '21 минуту'],
  ] as const)('%s: a meeting that starts in %i minutes', (language, count, expected) => {
    const text = translate(language, 'meetings.mail_reminder_intro', { name: 'Standup', count });
    expect(text).toContain(expected);
    expect(text).toContain('Standup');
  });

  it('leaves a value it was not given visible as its placeholder', () => {
    expect(translate('en', 'accounts.signup_sent')).toContain('{{email}}');
  });
});
