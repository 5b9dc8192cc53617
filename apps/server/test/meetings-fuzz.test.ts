import { meetingCalls, tableOf } from '@meetcast/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMeeting, nowSeconds } from './meeting-helpers.js';
import { fieldsOf } from './openapi-surface.js';
import { BACKENDS } from './test-database.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';

/** Every call of the meetings and calendar features, from the table of calls. */
const CALLS = Object.keys(tableOf(meetingCalls));

/** Every field those calls read, and the language. */
const FIELDS = [...new Set(Object.values(meetingCalls).flatMap((call) => fieldsOf(call.name))), 'lng'];

const value = (now: number) =>
  fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.integer(),
    fc.integer({ min: now - 86_400 * 400, max: now + 86_400 * 800 }),
    fc.constantFrom(
      '',
      ' ',
      '0',
      '1',
      '2',
      '7',
      '14',
      '30',
      '-1',
      '1e9',
      'NaN',
      'null',
      '%',
      '\\',
      'a,b',
      'UTC',
      'Europe/Berlin',
      '#ffffff',
      'x@example.com',
    ),
    fc.double(),
    fc.constant('9'.repeat(30)),
  );

describe.each(BACKENDS)('meeting calls under random input on %s', (backend) => {
  let server: TestServer;
  let ann: SignedIn;
  let meetingId = 0;
  beforeAll(async () => {
    [server, ann] = await startWithPeople({ backend, env: { RATE_LIMIT_MULTIPLIER: '100000' } }, 'Fuzz');
    meetingId = (await addMeeting(server, ann, { repeat: 7 })).id;
  });
  afterAll(() => server.close());

  it('never answers 5xx to form posts', async () => {
    const now = nowSeconds();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CALLS),
        fc.dictionary(fc.constantFrom(...FIELDS), value(now), { maxKeys: 10 }),
        fc.constantFrom('own', 'none', 'bad'),
        fc.boolean(),
        async (call, fields, auth, knownId) => {
          const token = auth === 'own' ? ann.token : auth === 'bad' ? 'not-a-token' : undefined;
          const answer = await server.post(call, {
            ...fields,
            ...(knownId ? { id: meetingId } : {}),
            ...(token ? { token } : {}),
          });
          expect(answer.httpStatus, `${call} ${JSON.stringify(fields)}`).toBeLessThan(500);
          expect(answer.body.status).toBe(answer.httpStatus === 200 ? 'success' : 'error');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never answers 5xx to odd JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CALLS),
        fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }),
        async (call, fields) => {
          const response = await fetch(`${server.baseUrl}/api/${call}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...fields, token: ann.token }),
          });
          expect(response.status, `${call} ${JSON.stringify(fields)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
