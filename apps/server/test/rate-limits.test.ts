import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, uniqueEmail, type TestServer } from './test-server.js';

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
