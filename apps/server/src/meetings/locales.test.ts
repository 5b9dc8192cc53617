import { LANGUAGES } from '@meetcast/contracts';
import { describe, expect, it } from 'vitest';
import { catalogFor, englishCatalog, type MessageKey } from '../i18n/messages.js';

const placeholders = (text: string) => [...text.matchAll(/\{\{\w+\}\}|<[^>]+>/g)].map((match) => match[0]).sort();

describe('meeting and calendar messages', () => {
  const english = englishCatalog();
  const keys = (Object.keys(english) as MessageKey[]).filter((key) => /^(meetings|events|calendar)\./.test(key));

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'are complete and keep their placeholders in %s',
    (language) => {
      const catalog = catalogFor(language);
      for (const key of keys) {
        const text = catalog[key];
        expect(text, `${language} ${key}`).toBeTruthy();
        expect(placeholders(text ?? ''), `${language} ${key}`).toEqual(placeholders(english[key]));
        if (!/^meetings\.(mail_password|repeat_|mail_join)/.test(key) && english[key].length > 12) {
          expect(text, `${language} ${key} is still English`).not.toBe(english[key]);
        }
      }
    },
  );
});
