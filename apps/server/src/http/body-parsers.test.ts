import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { parseMultipart, parseUrlEncoded } from './body-parsers.js';

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

  it('refuses __proto__ and keeps other Object.prototype names as plain fields', () => {
    expect(() => parseUrlEncoded('__proto__=x')).toThrow(AppError);
    const parsed = parseUrlEncoded('constructor=y&toString=z');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(parsed).toEqual({ constructor: 'y', toString: 'z' });
  });
});

function multipartRequest(parts: string[]): IncomingMessage {
  const boundary = 'meetcast-test-boundary';
  const body = `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--\r\n`;
  return Object.assign(Readable.from([Buffer.from(body)]), {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }) as unknown as IncomingMessage;
}

const textPart = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;

describe('parseMultipart', () => {
  it('gives text parts as strings, file parts as bytes and repeated parts as lists', async () => {
    const fields = await parseMultipart(
      multipartRequest([
        textPart('token', 'abc'),
        textPart('tag', 'a'),
        textPart('tag', 'b'),
        'Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello',
      ]),
    );
    expect(fields.token).toBe('abc');
    expect(fields.tag).toEqual(['a', 'b']);
    expect(Buffer.isBuffer(fields.file) && fields.file.toString()).toBe('hello');
  });

  it('refuses NUL characters, __proto__ and too many fields', async () => {
    await expect(parseMultipart(multipartRequest([textPart('name', 'a\u0000b')]))).rejects.toMatchObject({
      statusCode: 400,
      key: 'errors.nul_character',
    });
    await expect(parseMultipart(multipartRequest([textPart('__proto__', 'x')]))).rejects.toMatchObject({
      statusCode: 400,
    });
    const many = Array.from({ length: 51 }, (_, index) => textPart(`f${index}`, 'x'));
    await expect(parseMultipart(multipartRequest(many))).rejects.toMatchObject({ statusCode: 413 });
  });
});
