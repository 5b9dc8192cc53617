import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import Busboy, { type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

const BODY_LIMIT = 1024 * 1024;
export const UPLOAD_LIMIT = 5 * 1024 * 1024;
const MULTIPART_LIMITS = { fileSize: UPLOAD_LIMIT, fields: 50, fieldSize: 64 * 1024, files: 2, parts: 60 };

type FormValue = string | Buffer;
export type FormFields = Record<string, FormValue | FormValue[]>;

const NEEDS_DECODING = /[%+]/;

function decodeComponent(component: string): string {
  if (!NEEDS_DECODING.test(component)) return component;
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw new AppError(400, 'errors.invalid_encoding');
  }
}

/**
 * PostgreSQL text cannot hold NUL, so no field name or text value may carry one (file contents are
 * bytes, not text). A repeated field becomes a list. `__proto__` would set the object's prototype.
 */
function addField(fields: FormFields, name: string, value: FormValue) {
  if (name === '__proto__') throw new AppError(400, 'errors.bad_request');
  if (name.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000')))
    throw new AppError(400, 'errors.nul_character');
  const existing = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (existing === undefined) fields[name] = value;
  else fields[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}

/** Strict form decoding: bad percent-encoding or non-UTF-8 bytes are refused, not replaced. */
export function parseUrlEncoded(raw: string): FormFields {
  const fields: FormFields = {};
  for (const pair of raw.split('&')) {
    if (!pair) continue;
    const separator = pair.indexOf('=');
    const name = decodeComponent(separator === -1 ? pair : pair.slice(0, separator));
    addField(fields, name, separator === -1 ? '' : decodeComponent(pair.slice(separator + 1)));
  }
  return fields;
}

function utf8Text(body: Buffer): string {
  if (!isUtf8(body)) throw new AppError(400, 'errors.invalid_encoding');
  return body.toString('utf8');
}

/** Deeper JSON than any call takes is refused before anything walks it (no recursion, no stack overflow). */
const MAX_JSON_DEPTH = 32;

/**
 * Walks a parsed JSON value with an explicit stack: refuses NUL in any key or string (PostgreSQL text
 * cannot hold it) and nesting deeper than MAX_JSON_DEPTH.
 */
function checkJsonValue(root: unknown) {
  const pending: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw new AppError(400, 'errors.nul_character');
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw new AppError(400, 'errors.bad_request');
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) throw new AppError(400, 'errors.nul_character');
      pending.push({ value: item, depth: depth + 1 });
    }
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(400, 'errors.bad_request');
  }
  checkJsonValue(value);
  return value;
}

/**
 * A multipart form becomes the same plain object as the other encodings: text parts as strings,
 * file parts as bytes. Any limit reached refuses the whole request, so nothing is half-read.
 */
export function parseMultipart(request: IncomingMessage): Promise<FormFields> {
  return new Promise((resolve, reject) => {
    const fields: FormFields = {};
    let failure: AppError | undefined;
    const fail = (error: AppError) => {
      failure ??= error;
      request.unpipe();
      request.resume();
      reject(failure);
    };
    let parser: BusboyInstance;
    try {
      parser = Busboy({ headers: request.headers as BusboyHeaders, limits: MULTIPART_LIMITS });
    } catch {
      reject(new AppError(400, 'errors.bad_request'));
      return;
    }
    const tooLarge = () => fail(new AppError(413, 'errors.payload_too_large'));
    const add = (name: string, value: FormValue) => {
      try {
        addField(fields, name, value);
      } catch (error) {
        fail(error as AppError);
      }
    };
    const pendingFiles: Promise<void>[] = [];
    parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) tooLarge();
      else add(name, value);
    });
    parser.on('file', (name: string, stream: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      stream.on('limit', tooLarge);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      pendingFiles.push(
        new Promise((fileDone) =>
          stream.on('end', () => {
            if (!failure) add(name, Buffer.concat(chunks));
            fileDone();
          }),
        ),
      );
    });
    parser.on('partsLimit', tooLarge);
    parser.on('filesLimit', tooLarge);
    parser.on('fieldsLimit', tooLarge);
    parser.on('error', () => fail(new AppError(400, 'errors.bad_request')));
    parser.on('finish', () => {
      void Promise.all(pendingFiles).then(() => (failure ? undefined : resolve(fields)));
    });
    request.on('error', () => fail(new AppError(400, 'errors.bad_request')));
    request.pipe(parser);
  });
}

/**
 * Every call accepts urlencoded forms, multipart forms and JSON with the same fields. Each is a
 * content-type parser, so a request pays only for its own encoding and no hook runs for the others
 * (a call without any body is handled by the validator, see zod-compilers.ts).
 */
export function registerBodyParsers(app: FastifyInstance) {
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
        done(null, parseJson(utf8Text(body)));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    parseMultipart(payload as IncomingMessage).then(
      (fields) => done(null, fields),
      (error: Error) => done(error, undefined),
    );
  });
}
