import { peopleCalls } from '@meetcast/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf } from './openapi-surface.js';
import { postFile } from './people-helpers.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

/** Every call of the contacts, channels, profile and contact-us features with the fields they read, from the table of calls. */
const ENDPOINTS = Object.fromEntries(Object.values(peopleCalls).map((call) => [call.name, fieldsOf(call.name)]));

const nasty = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1',
  '2147483648',
  '99999999999999999999',
  '1e3',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  '[{"label":"x","url":"https://a.b"}]',
  '[{"label":1}]',
  '\u0000',
  '%00',
  '💥'.repeat(300),
  'a'.repeat(6000),
  "'; drop table users; --",
  '<script>alert(1)</script>',
  'Europe/Paris',
  'public',
  'cover',
  'name',
  'x@example.com',
  'ann-talks',
);
const value = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.integer(),
  nasty,
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

describe.each(BACKENDS)('people endpoints never answer 5xx on %s', (backend) => {
  let server: TestServer;
  let user: SignedIn;
  beforeAll(async () => {
    [server, user] = await startWithPeople({ backend, env: { LOG_LEVEL: 'error' } }, 'Fuzz');
    await server.post('create-channel.php', { token: user.token, name: 'Fuzz TV', slug: 'fuzz-tv' });
    await server.post('add-contact.php', { token: user.token, name: 'Target', email: 'target@example.com' });
  });
  afterAll(() => server.close());

  it.each(Object.entries(ENDPOINTS))('%s', async (name, fields) => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(Object.fromEntries([...fields, 'lng', 'extra'].map((field) => [field, value])), { requiredKeys: [] }),
        fc.constantFrom('form', 'json', 'multipart'),
        fc.boolean(),
        async (payload, encoding, withToken) => {
          const body: Record<string, unknown> = { ...payload };
          if (withToken && !['delete-account.php', 'change-password.php', 'revoke-session.php'].includes(name)) {
            body.token = user.token;
          }
          let status: number;
          if (encoding === 'json') {
            const response = await fetch(`${server.baseUrl}/api/${name}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            status = response.status;
            await response.text();
          } else if (encoding === 'multipart') {
            const fileBytes = typeof body.file === 'string' ? body.file : String(body.file ?? 'name,email\nA,a@b.c');
            delete body.file;
            status = (
              await postFile(server, name, body as Record<string, string>, {
                filename: 'random.bin',
                type: 'application/octet-stream',
                bytes: fileBytes,
              })
            ).httpStatus;
          } else {
            status = (await server.post(name, body as Record<string, string>)).httpStatus;
          }
          expect(status, `${name} ${encoding} ${JSON.stringify(body).slice(0, 300)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 20 },
    );
  });
});
