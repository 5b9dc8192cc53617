import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.js';
import { freePort } from '../src/media/managed-janus.js';

/** A Redis of this test's own (never the machine's shared one), so that it can be stopped. */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(true));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
    });
    if (open) return redis;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not start');
}

async function stopRedis(redis: ChildProcess) {
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGKILL');
  await exited;
}

const OUTAGE_MS = 15_000;

describe('Redis outage', () => {
  let server: TestServer;
  let redis: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    server = await startTestServer('pglite', { REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await server.close();
    if (redis.exitCode === null) await stopRedis(redis);
  });

  it('answers limited calls 503 with Retry-After while Redis is away, and recovers when it returns', async () => {
    const account = await server.signUp();
    await stopRedis(redis);

    const started = Date.now();
    const login = await fetch(`${server.baseUrl}/api/login.php`, {
      method: 'POST',
      body: new URLSearchParams({ email: account.email, password: account.password, lng: 'fr' }),
    });
    expect(login.status).toBe(503);
    expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await login.json()) as { status: string; message: string };
    expect(body.status).toBe('error');
    expect(body.message).toMatch(/service/i);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(
      (await server.post('signup.php', { username: 'Xavier', email: 'xavier@example.com', password: 'long enough pw' }))
        .httpStatus,
    ).toBe(503);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);
    // Calls without a limit go on: the session is in the database.
    expect((await server.post('tokenverify.php', { token: account.token })).httpStatus).toBe(200);
    expect((await server.post('logout.php', { token: account.token })).httpStatus).toBe(200);
    // Away for 15 s in all, as a restart or failover of Redis would be: still 503, never 500.
    while (Date.now() - started < OUTAGE_MS) {
      const again = await server.post('login.php', { email: account.email, password: account.password });
      expect(again.httpStatus).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    redis = await startRedis(port);
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < 5000) {
      status = (await server.post('login.php', { email: account.email, password: account.password })).httpStatus;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect(Date.now() - back).toBeLessThan(2500);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
  }, 90_000);
});
