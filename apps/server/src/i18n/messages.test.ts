import { readdirSync, readFileSync } from 'node:fs';
import { FALLBACK_LANGUAGE, LANGUAGES } from '@meetcast/contracts';
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

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] ?? '').sort();
}

function keyDifference(english: object, translated: object): { missing: string[]; extra: string[] } {
  const source = Object.keys(english);
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
      expect(keyDifference(english, translated), `${language}/${file}`).toEqual({ missing: [], extra: [] });

      for (const [key, source] of Object.entries(english)) {
        const value = translated[key];
        expect(typeof value, `${language}/${file} ${key}`).toBe('string');
        if (typeof value !== 'string' || typeof source !== 'string') continue;
        expect(value.trim(), `${language}/${file} ${key} is empty`).not.toBe('');
        if (!MAY_EQUAL_ENGLISH.has(key)) {
          expect(value, `${language}/${file} ${key} is still English`).not.toBe(source);
        }
        expect(placeholders(value), `${language}/${file} ${key} placeholders`).toEqual(placeholders(source));
        expect(value.split('\n').length, `${language}/${file} ${key} line breaks`).toBe(source.split('\n').length);
        if (source.includes('Meetcast')) expect(value, `${language}/${file} ${key} brand`).toContain('Meetcast');
      }
    });

    it('is what the server loads for the language', () => {
      expect(keyDifference(englishCatalog(), catalogFor(language))).toEqual({ missing: [], extra: [] });
    });
  });

  it('answers in the requested language and fills in parameters', () => {
    const english = translate('en', 'accounts.login_failed');
    expect(english).toBe('Wrong e-mail address or password.');
    expect(translate('de', 'accounts.login_failed')).not.toBe(english);
    expect(translate('de', 'accounts.login_failed')).toBe(catalogFor('de')['accounts.login_failed']);

    const waiting = translate('fr', 'errors.rate_limited', { seconds: 42 });
    expect(waiting).toContain('42');
    expect(waiting).not.toContain('{{');
    expect(waiting).not.toBe(translate('en', 'errors.rate_limited', { seconds: 42 }));
  });
});
