import { isUtf8 } from 'node:buffer';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

const BODY_LIMIT = 1024 * 1024;
export const UPLOAD_LIMIT = 5 * 1024 * 1024;

const NEEDS_DECODING = /[%+]/;

function decodeComponent(component: string): string {
  if (!NEEDS_DECODING.test(component)) return component;
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw new AppError(400, 'errors.invalid_encoding');
  }
}

/** Strict form decoding: bad percent-encoding or non-UTF-8 bytes are refused, not replaced. */
export function parseUrlEncoded(raw: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const pair of raw.split('&')) {
    if (!pair) continue;
    const separator = pair.indexOf('=');
    const key = decodeComponent(separator === -1 ? pair : pair.slice(0, separator));
    const value = separator === -1 ? '' : decodeComponent(pair.slice(separator + 1));
    const existing = fields[key];
    if (existing === undefined) fields[key] = value;
    else fields[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return { ...fields };
}

function utf8Text(body: Buffer): string {
  if (!isUtf8(body)) throw new AppError(400, 'errors.invalid_encoding');
  return body.toString('utf8');
}

/** PostgreSQL text cannot hold NUL, so no field may carry one (file contents are Buffers, not strings). */
function hasNulCharacter(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNulCharacter);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || hasNulCharacter(item));
  }
  return false;
}

/** Every call accepts urlencoded forms, multipart forms and JSON with the same fields. */
export async function registerBodyParsers(app: FastifyInstance) {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
    (_request, body: Buffer, done) => {
      try {
        done(null, parseUrlEncoded(utf8Text(body)));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
    (_request, body: Buffer, done) => {
      try {
        const text = utf8Text(body);
        done(null, text.trim() === '' ? {} : (JSON.parse(text) as unknown));
      } catch (error) {
        done(error instanceof AppError ? error : new AppError(400, 'errors.bad_request'), undefined);
      }
    },
  );
  // A call without a body is a call with no fields, so a missing token answers 401 and not 400.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'POST' && (request.body === undefined || request.body === null)) request.body = {};
    done();
  });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: {
      fileSize: UPLOAD_LIMIT,
      fields: 50,
      fieldSize: 64 * 1024,
      files: 2,
      parts: 60,
    },
  });
  // After the multipart hook, so that multipart fields are checked too.
  app.addHook('preValidation', (request, _reply, done) => {
    done(hasNulCharacter(request.body) ? new AppError(400, 'errors.nul_character') : undefined);
  });
}
