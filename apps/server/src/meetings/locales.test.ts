import { expectedPluralKeys, LANGUAGES, pluralBase } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { catalogFor, englishCatalog } from '../i18n/messages.js';

// A plural form may say its number in words ("two minutes"), so {{count}} is not compared there.
const placeholders = (text: string, plural: boolean) =>
  [...text.matchAll(/\{\{\w+\}\}|<[^>]+>/g)]
    .map((match) => match[0])
    .filter((found) => !(plural && found === '{{count}}'))
    .sort();

describe('meeting and calendar messages', () => {
  const english = new Map(
    Object.entries(englishCatalog()).filter(([key]) => /^(meetings|events|calendar)\./.test(key)),
  );

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'are complete and keep their placeholders in %s',
    (language) => {
      const catalog = catalogFor(language);
      // Each plural form the language uses is checked against English's form of that name, or its `_other`.
      for (const [key, source] of expectedPluralKeys(english, language)) {
        const text = catalog[key];
        expect(text, `${language} ${key}`).toBeTruthy();
        const plural = pluralBase(key, english) !== undefined;
        expect(placeholders(text ?? '', plural), `${language} ${key}`).toEqual(placeholders(source, plural));
        if (!/^meetings\.(mail_password|repeat_|mail_join)/.test(key) && source.length > 12) {
          expect(text, `${language} ${key} is still English`).not.toBe(source);
        }
      }
    },
  );
});
