import { users } from '@meetcast/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOperations, type FieldSchema, type Operation } from './openapi-surface.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

/** At least this many requests per run, spread over every operation of the description. */
const TOTAL_REQUESTS = 10_000;
const CONCURRENCY = 8;

interface FuzzRequest {
  body: string | URLSearchParams | FormData;
  headers: Record<string, string>;
}

/** Values of the field's own type: the ones most likely to get past validation and into the code. */
function typedValue(schema: FieldSchema): fc.Arbitrary<unknown> {
  const types = [schema.type, ...(schema.anyOf ?? []).map((option) => option.type)].flat().filter(Boolean);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (types.includes('integer') || types.includes('number')) {
    return fc.oneof(fc.integer({ min: -3, max: 100 }), fc.integer(), fc.constant(Math.floor(Date.now() / 1000) + 3600));
  }
  if (types.includes('boolean')) return fc.boolean();
  return fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('a-valid-slug', 'ann@example.com', '[1,2]', '{}'));
}

/** Values of any type and size: wrong types, huge and nested values, NUL, odd Unicode, prototype keys. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\uD800', '\u202Etxt.exe', '<script>alert(1)</script>', "' or 1=1 --"),
  fc.constantFrom('x'.repeat(70_000), '9'.repeat(400), '-1', '1e309', 'NaN', '0x10', 'true', 'null'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', 'id'), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.constant(JSON.parse('{"__proto__": {"isAdmin": true}}') as unknown),
  fc.constant(Array.from({ length: 50 }).reduce<unknown>((inner) => ({ a: inner }), 1)),
);

const asText = (value: unknown) =>
  typeof value === 'string'
    ? value
    : value === null
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

function encode(fields: Record<string, unknown>, encoding: number): FuzzRequest {
  switch (encoding) {
    case 0:
      return { body: JSON.stringify(fields), headers: { 'content-type': 'application/json' } };
    case 1: {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(fields)) form.append(name, asText(value));
      return { body: form, headers: {} };
    }
    case 2: {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, asText(value));
      form.append('file', new Blob([new Uint8Array([0xff, 0xd8, 0x00, 0x01])]), 'x.jpg');
      return { body: form, headers: {} };
    }
    case 3:
      // Bytes that are not UTF-8, in a form.
      return { body: `name=%FF%FE&token=%C3`, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    case 4:
      return {
        body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      };
    case 5:
      return { body: JSON.stringify(fields), headers: { 'content-type': 'text/plain' } };
    default:
      return { body: '{"unterminated": ', headers: { 'content-type': 'application/json' } };
  }
}

function requestFor(operation: Operation, tokens: string[]): fc.Arbitrary<FuzzRequest> {
  const names = [...operation.fields.keys()].filter((name) => name !== 'token');
  const fieldValues = fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        fc.oneof(
          { arbitrary: typedValue(operation.fields.get(name) ?? {}), weight: 12 },
          { arbitrary: hostileValue, weight: 1 },
        ),
      ]),
    ) as Record<string, fc.Arbitrary<unknown>>,
    { requiredKeys: [] },
  );
  return fc
    .tuple(
      fieldValues,
      fc.oneof(
        { arbitrary: fc.constantFrom(...tokens), weight: 8 },
        { arbitrary: fc.constantFrom(undefined, 'not-a-token'), weight: 1 },
      ),
      fc.nat({ max: 20 }).map((n) => (n < 14 ? n % 3 : n - 11)),
    )
    .map(([fields, token, encoding]) => encode({ ...fields, ...(token ? { token } : {}) }, encoding));
}

describe('every operation of the OpenAPI description under hostile input', () => {
  let server: TestServer;
  let admin: SignedIn;
  let regular: SignedIn;

  beforeAll(async () => {
    [server, admin, regular] = await startWithPeople('pglite', 'Fuzz Admin', 'Fuzz User');
  });
  afterAll(() => server.close());

  it(`answers ${TOTAL_REQUESTS}+ requests without a 5xx, always in the contract's shape`, async () => {
    // Calls that can end the fuzzers' own sessions or accounts go last, so the rest run signed in.
    const endsSessions = (path: string) =>
      /logout|sign-out|revoke|password|delete-account|disable|role|delete-user/.test(path);
    const operations = (await readOperations(server.baseUrl)).sort(
      (a, b) => Number(endsSessions(a.path)) - Number(endsSessions(b.path)),
    );
    expect(operations.length).toBeGreaterThan(80);
    const perOperation = Math.ceil(TOTAL_REQUESTS / operations.length);
    const work: { path: string; request: FuzzRequest }[] = [];
    operations.forEach((operation, index) => {
      const samples = fc.sample(requestFor(operation, [regular.token, admin.token]), {
        numRuns: perOperation,
        seed: 2026 + index,
      });
      for (const request of samples) work.push({ path: operation.path, request });
    });
    const failures: string[] = [];
    let sent = 0;
    let succeeded = 0;
    const worker = async () => {
      for (let next = work.shift(); next; next = work.shift()) {
        const response = await fetch(`${server.baseUrl}${next.path}`, {
          method: 'POST',
          body: next.request.body,
          headers: next.request.headers,
        });
        sent++;
        if (response.status === 200) succeeded++;
        const text = await response.text();
        let body: { status?: unknown; message?: unknown } | undefined;
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          body = undefined;
        }
        // Exports answer with the file itself (CSV, iCalendar); everything else with the JSON envelope.
        const isFile =
          response.status === 200 && /^text\/(csv|calendar)/.test(response.headers.get('content-type') ?? '');
        const isContractShape =
          isFile || ((body?.status === 'success' || body?.status === 'error') && typeof body.message === 'string');
        if (response.status >= 500 || !isContractShape) {
          failures.push(`${next.path} → ${response.status} ${text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(sent).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
    expect(failures.slice(0, 10)).toEqual([]);
    // Not all of it bounced off validation: a share reached the handlers and succeeded.
    expect(succeeded).toBeGreaterThan(TOTAL_REQUESTS / 50);

    // Nothing stored with a NUL or an object where text belongs; the accounts are still there.
    const stored = await server.built.context.db.select({ name: users.username, email: users.email }).from(users);
    for (const row of stored) {
      expect(row.name).not.toContain('\u0000');
      expect(row.name).not.toMatch(/^\[object /);
    }
  }, 600_000);
});
