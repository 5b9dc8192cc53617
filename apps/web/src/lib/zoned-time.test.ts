import { describe, expect, it } from 'vitest';
import { formatDateTime, formatRange, formatTime } from './zoned-time';

// Wednesday 3 March 2027, 17:00 to 18:00 UTC.
const START = Date.UTC(2027, 2, 3, 17) / 1000;
const HOUR = 3600;

describe('times: one format per language', () => {
  it('writes both ends of a range the same way', () => {
    expect(formatRange(START, START + HOUR, 'UTC', 'en')).toBe('Wed, Mar 3, 2027, 5:00 PM – 6:00 PM');
    expect(formatRange(START - 8 * HOUR, START - 7 * HOUR, 'UTC', 'en')).toBe('Wed, Mar 3, 2027, 9:00 AM – 10:00 AM');
    expect(formatRange(START, START + HOUR, 'UTC', 'de')).toBe('Mi., 3. März 2027, 17:00 – 18:00');
  });

  it('writes a lone time as the range does, in every language', () => {
    for (const language of ['en', 'de', 'fr', 'ja', 'ar', 'ru', 'zh']) {
      const range = formatRange(START, START + HOUR, 'UTC', language);
      expect(range.endsWith(formatTime(START + HOUR, 'UTC', language))).toBe(true);
      expect(range).toContain(formatTime(START, 'UTC', language));
      expect(formatDateTime(START, 'UTC', language)).toContain(formatTime(START, 'UTC', language));
    }
  });
});
