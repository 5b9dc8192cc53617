import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueEmail, type Fields, type SignedIn, type TestServer } from './test-server.js';

describe.each([
  ['memory', {}],
  ['redis', { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' }],
] as const)('rate limits (%s)', (_name, env) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { RATE_LIMIT_MULTIPLIER: '1', ...env });
  });
  afterAll(() => server.close());

  it('limits sign-in attempts per account with a 429 in the contract shape', async () => {
    const email = uniqueEmail('target');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      statuses.push((await server.post('login.php', { email, password: 'guess guess' })).httpStatus);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    const limited = await server.post('login.php', { email, password: 'guess guess' });
    expect(limited.httpStatus).toBe(429);
    expect(limited.body).toMatchObject({ status: 'error' });
    expect(limited.body.message).toMatch(/\d+ seconds/);
  });

  it('limits code entry per account', async () => {
    const email = uniqueEmail('codes');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await server.post('confirm-signup.php', { email, code: '123456' })).httpStatus);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('client address behind proxies', () => {
  const resetRequests = async (server: TestServer) => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const forwardedFor = `198.51.100.${attempt + 1}`;
      const answer = await server.post(
        'forgot-password.php',
        { email: uniqueEmail('xff') },
        { 'x-forwarded-for': forwardedFor },
      );
      statuses.push(answer.httpStatus);
    }
    return statuses;
  };

  it('ignores X-Forwarded-For from a caller that is not a configured proxy', async () => {
    const server = await startTestServer('pglite', { RATE_LIMIT_MULTIPLIER: '1' });
    try {
      const statuses = await resetRequests(server);
      expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    } finally {
      await server.close();
    }
  });

  it('takes the forwarded address from a configured proxy', async () => {
    const server = await startTestServer('pglite', { RATE_LIMIT_MULTIPLIER: '1', TRUST_PROXY: '127.0.0.1' });
    try {
      expect((await resetRequests(server)).every((status) => status === 200)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('sign-in lockout', () => {
  it('keeps a guesser at one address from locking the owner out, and still slows guessing from many', async () => {
    const server = await startTestServer('pglite', { RATE_LIMIT_MULTIPLIER: '1', TRUST_PROXY: '127.0.0.1' });
    try {
      const owner = await server.signUp();
      const from = (address: string) => ({ 'x-forwarded-for': address });
      for (let attempt = 0; attempt < 10; attempt++) {
        await server.post('login.php', { email: owner.email, password: 'wrong guess' }, from('203.0.113.9'));
      }
      const guesser = await server.post(
        'login.php',
        { email: owner.email, password: owner.password },
        from('203.0.113.9'),
      );
      expect(guesser.httpStatus).toBe(429);
      const ownerElsewhere = await server.post(
        'login.php',
        { email: owner.email, password: owner.password },
        from('198.51.100.7'),
      );
      expect(ownerElsewhere.httpStatus).toBe(200);

      // A guesser spread over many addresses meets the per-account ceiling (100 an hour).
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 100; attempt++) {
        const address = `192.0.2.${attempt % 250}`;
        statuses.push(
          (await server.post('login.php', { email: owner.email, password: 'wrong' }, from(address))).httpStatus,
        );
      }
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await server.close();
    }
  }, 120_000);
});

/** A browser: the address it calls from (through the trusted proxy) and the cookies it was given. */
interface Browser {
  address: string;
  cookie?: string | undefined;
}

/** A form post the way a browser makes it, keeping the cookie the answer sets. */
async function postAs(server: TestServer, browser: Browser, name: string, fields: Fields) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
  const headers: Record<string, string> = { 'x-forwarded-for': browser.address };
  if (browser.cookie) headers.cookie = browser.cookie;
  const response = await fetch(`${server.baseUrl}/api/${name}`, { method: 'POST', body: form, headers });
  const given = response.headers.getSetCookie()[0]?.split(';')[0];
  if (given) browser.cookie = given;
  await response.body?.cancel();
  return { httpStatus: response.status, retryAfter: Number(response.headers.get('retry-after') ?? 0) };
}

describe('sign-in lockout by many addresses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { RATE_LIMIT_MULTIPLIER: '1', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => server.close());

  /** 100 wrong passwords from 10 addresses, then a few more from new ones: the account's ceiling is reached. */
  async function guessFromMany(owner: SignedIn, prefix: string) {
    await Promise.all(
      Array.from({ length: 10 }, async (_, machine) => {
        const guesser = { address: `${prefix}.${machine}` };
        for (let attempt = 0; attempt < 10; attempt++) {
          const answer = await postAs(server, guesser, 'login.php', { email: owner.email, password: 'wrong guess' });
          expect([401, 429]).toContain(answer.httpStatus);
        }
      }),
    );
    const beyond = [];
    for (let machine = 10; machine < 15; machine++) {
      beyond.push(
        await postAs(server, { address: `${prefix}.${machine}` }, 'login.php', { email: owner.email, password: 'x' }),
      );
    }
    return beyond;
  }

  it('keeps browsers and sessions that signed in before out of the lock, and slows strangers instead of shutting them out', async () => {
    const owner = await server.signUp();
    const ownersBrowser: Browser = { address: '198.51.100.50' };
    const signIn = { email: owner.email, password: owner.password };
    expect((await postAs(server, ownersBrowser, 'login.php', signIn)).httpStatus).toBe(200);
    const stranger = await server.signUp();
    const strangersBrowser: Browser = { address: '198.51.100.51' };
    await postAs(server, strangersBrowser, 'login.php', { email: stranger.email, password: stranger.password });

    const beyond = await guessFromMany(owner, '192.0.2');
    // Guessing from many addresses is still slowed: past the ceiling, one try in half a minute (a slow
    // machine may see a second half minute begin among these five).
    const refused = beyond.filter((answer) => answer.httpStatus === 429);
    expect(refused.length).toBeGreaterThanOrEqual(3);
    for (const answer of refused) expect(answer.retryAfter).toBeLessThanOrEqual(30);
    // A mark another account's sign-in left is worth nothing for this one.
    const borrowed = { ...strangersBrowser, address: '198.51.100.52' };
    const withBorrowedMark = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      withBorrowedMark.push((await postAs(server, borrowed, 'login.php', { ...signIn, password: 'wrong' })).httpStatus);
    }
    expect(withBorrowedMark).toContain(429);

    // The owner's browser signs in, even from an address the guessing came from; sessions go on.
    const ownerAtGuessersAddress = { ...ownersBrowser, address: '192.0.2.3' };
    expect((await postAs(server, ownerAtGuessersAddress, 'login.php', signIn)).httpStatus).toBe(200);
    expect((await server.post('tokenverify.php', { token: owner.token })).httpStatus).toBe(200);

    // From a browser it never used, the owner waits half a minute at most, not the rest of the hour.
    const newBrowser: Browser = { address: '198.51.100.53' };
    await expect
      .poll(async () => (await postAs(server, newBrowser, 'login.php', signIn)).httpStatus, {
        timeout: 45_000,
        interval: 5000,
      })
      .toBe(200);
  }, 120_000);

  it('lifts the lock when the owner resets the password', async () => {
    const owner = await server.signUp();
    await guessFromMany(owner, '192.0.3');
    const ownersBrowser: Browser = { address: '198.51.100.60' };
    const signIn = { email: owner.email, password: owner.password };
    const locked = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      locked.push((await postAs(server, { address: ownersBrowser.address }, 'login.php', signIn)).httpStatus);
    }
    expect(locked).toContain(429);

    const before = server.mail.messages.length;
    expect((await postAs(server, ownersBrowser, 'forgot-password.php', { email: owner.email })).httpStatus).toBe(200);
    const code = await server.mail.codeFor(owner.email, before);
    const password = 'a brand new secret';
    const reset = await postAs(server, ownersBrowser, 'reset-password.php', { email: owner.email, code, password });
    expect(reset.httpStatus).toBe(200);

    expect((await postAs(server, ownersBrowser, 'login.php', { ...signIn, password })).httpStatus).toBe(200);
    const elsewhere = { address: '198.51.100.61' };
    expect((await postAs(server, elsewhere, 'login.php', { ...signIn, password })).httpStatus).toBe(200);
  }, 120_000);
});
