import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { parseUrlEncoded } from './body-parsers.js';

describe('parseUrlEncoded', () => {
  it('decodes fields, plus signs and UTF-8 escapes', () => {
    expect(parseUrlEncoded('name=Ann+Lee&city=K%C3%B8benhavn&empty=&flag')).toEqual({
      name: 'Ann Lee',
      city: 'København',
      empty: '',
      flag: '',
    });
  });

  it('keeps repeated fields as a list so that validation can refuse them', () => {
    expect(parseUrlEncoded('a=1&a=2&a=3')).toEqual({ a: ['1', '2', '3'] });
  });

  it('refuses escapes that are not UTF-8', () => {
    expect(() => parseUrlEncoded('name=%FF')).toThrow(AppError);
    expect(() => parseUrlEncoded('name=%E0%A4')).toThrow(AppError);
  });

  it('does not let __proto__ reach the prototype', () => {
    const parsed = parseUrlEncoded('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
