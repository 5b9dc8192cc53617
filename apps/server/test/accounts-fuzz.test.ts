import { accountCalls, tableOf } from '@meetcast/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.js';

/** Every call of sign-up, sign-in and notifications, from the table of calls. */
const ENDPOINTS = Object.keys(tableOf(accountCalls));
const FIELDS = ['username', 'email', 'password', 'code', 'token', 'id', 'lng', '__proto__', 'constructor'];

const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom("' OR 1=1 --", '<img src=x onerror=alert(1)>', 'a@b.co', '%FF', '\u0000', '𝕏'.repeat(300), ''),
  fc.integer().map(String),
);
const jsonValue = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyString, { maxLength: 3 }),
);

/** Random payloads at every account endpoint: whatever arrives, the answer is never a 5xx. */
describe('account endpoints under random input', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { RATE_LIMIT_MULTIPLIER: '100000' });
  });
  afterAll(() => server.close());

  it('answers form posts with 2xx or 4xx in the contract shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.array(fc.tuple(fc.constantFrom(...FIELDS), nastyString), { maxLength: 6 }),
        async (endpoint, pairs) => {
          const form = new URLSearchParams();
          for (const [key, value] of pairs) form.append(key, value);
          const response = await fetch(`${server.baseUrl}/api/${endpoint}`, { method: 'POST', body: form });
          expect(response.status).toBeLessThan(500);
          const body = (await response.json()) as { status: string; message: string };
          expect(['success', 'error']).toContain(body.status);
          expect(typeof body.message).toBe('string');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers JSON bodies of any shape with 2xx or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.oneof(fc.dictionary(fc.constantFrom(...FIELDS), jsonValue), jsonValue),
        async (endpoint, payload) => {
          const response = await fetch(`${server.baseUrl}/api/${endpoint}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(payload),
          });
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
