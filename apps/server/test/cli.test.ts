import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { startTestServer, uniqueEmail, type TestServer } from './test-server.js';

const CLI = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const NEW_PASSWORD = 'a brand new passphrase';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line as an operator runs it: its own process, the environment alone, stdin piped. */
function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Each test starts the command line as a process (node and tsx loading: seconds on a busy machine).
describe('meetcast command line', { timeout: 120_000 }, () => {
  it('prints its usage with --help (exit 0) and on an unknown command (stderr, exit 2)', async () => {
    const help = await runCli(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: meetcast <command> \[options\]/);
    for (const command of ['create-admin', 'reset-password', 'disable-user', 'health'])
      expect(help.stdout).toContain(command);
    const unknown = await runCli(['frobnicate'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect(unknown.stderr).toContain('Usage: meetcast');
    const commandHelp = await runCli(['reset-password', '--help'], {});
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain('--password-stdin');
    const wrongOption = await runCli(['disable-user', '--password', 'x'], {});
    expect(wrongOption.code).toBe(2);
  });
});

describe('meetcast command line on PostgreSQL', { timeout: 120_000 }, () => {
  let server: TestServer;
  let env: Record<string, string>;
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-cli-'));
  beforeAll(async () => {
    const prefix = `test-cli-${process.pid}-${Date.now()}`;
    server = await startTestServer('postgres', { REDIS_URL: SHARED_REDIS, REDIS_PREFIX: prefix });
    env = {
      DATABASE_URL: server.database.url!,
      REDIS_URL: SHARED_REDIS,
      REDIS_PREFIX: prefix,
      DATA_DIR: dataDir,
      PORT: String(await closedPort()),
    };
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const logIn = (email: string, password: string) =>
    server.post<{ token: string; data: { role_id: number } }>('login.php', { email, password });

  it('creates an administrator who signs in through the API', async () => {
    const email = uniqueEmail('operator');
    const created = await runCli(
      ['create-admin', '--email', email, '--username', 'Operator', '--password-stdin'],
      env,
      `${NEW_PASSWORD}\n`,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const signedIn = await logIn(email, NEW_PASSWORD);
    expect(signedIn.httpStatus).toBe(200);
    expect(signedIn.body.data?.data.role_id).toBe(1);
  });

  it('refuses a password that sign-up would refuse, and an invalid address', async () => {
    const short = await runCli(['create-admin', '--email', uniqueEmail(), '--username', 'Op'], env, 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('password');
    const badEmail = await runCli(['reset-password', '--email', 'not-an-address'], env, `${NEW_PASSWORD}\n`);
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toContain('--email');
  });

  it('resets a password and ends the sessions the account had', async () => {
    const account = await server.signUp();
    // Verified once, the session is in the server's cache: only the revocation message clears it.
    expect((await server.post('tokenverify.php', { token: account.token })).httpStatus).toBe(200);
    const reset = await runCli(['reset-password', '--email', account.email], env, `${NEW_PASSWORD}\n`);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('sessions ended');
    await expect
      .poll(async () => (await server.post('tokenverify.php', { token: account.token })).httpStatus, { timeout: 5000 })
      .toBe(401);
    expect((await logIn(account.email, account.password)).httpStatus).toBe(401);
    expect((await logIn(account.email, NEW_PASSWORD)).httpStatus).toBe(200);
  });

  it('disables an account: sign-in is refused and its session ends', async () => {
    const account = await server.signUp();
    expect((await server.post('tokenverify.php', { token: account.token })).httpStatus).toBe(200);
    const disabled = await runCli(['disable-user', '--email', account.email], env);
    expect(disabled.code).toBe(0);
    expect((await logIn(account.email, account.password)).httpStatus).toBe(403);
    await expect
      .poll(async () => (await server.post('tokenverify.php', { token: account.token })).httpStatus, { timeout: 5000 })
      .toBe(401);
    const unknown = await runCli(['disable-user', '--email', uniqueEmail('nobody')], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account has the address');
  });

  it('reports every check of a healthy installation, and fails when Redis does not answer', async () => {
    const healthy = await runCli(['health'], { ...env, COMPOSER_WORKER: 'off' });
    expect(healthy.stdout).toMatch(/^ok {3}database +postgres: SELECT 1 in \d+ ms$/m);
    expect(healthy.stdout).toMatch(/^ok {3}redis +PING answered PONG/m);
    for (const check of ['janus', 'turn', 'ffmpeg', 'chromium', 'composer', 'disk'])
      expect(healthy.stdout).toMatch(new RegExp(`^(ok  |FAIL) ${check} `, 'm'));
    expect(healthy.code, healthy.stdout).toBe(0);

    const redisDown = await runCli(['health'], {
      ...env,
      COMPOSER_WORKER: 'off',
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    });
    expect(redisDown.stdout).toMatch(/^FAIL redis /m);
    expect(redisDown.stdout).toMatch(/^ok {3}database /m);
    expect(redisDown.code).toBe(1);
  });
});

describe('meetcast command line on the embedded PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-cli-pglite-'));
  let built: BuiltApp | undefined;
  afterAll(async () => {
    await built?.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'creates an administrator in DATA_DIR, and refuses to open it while the server runs there',
    { timeout: 240_000 },
    async () => {
      const port = await closedPort();
      const env = { DATA_DIR: dataDir, PORT: String(port), COMPOSER_WORKER: 'off' };
      const email = uniqueEmail('embedded');
      const created = await runCli(
        ['create-admin', '--email', email, '--username', 'Embedded'],
        env,
        `${NEW_PASSWORD}\n`,
      );
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);

      built = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'silent', COMPOSER_SPARES: '0' }));
      await built.app.listen({ port, host: '127.0.0.1' });
      const answer = await fetch(`http://127.0.0.1:${port}/api/login.php`, {
        method: 'POST',
        body: new URLSearchParams({ email, password: NEW_PASSWORD }),
      });
      expect(answer.status).toBe(200);

      const refused = await runCli(['disable-user', '--email', email], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`in use by process ${process.pid}`);
      const health = await runCli(['health'], env);
      expect(health.stdout).toMatch(/^ok {3}database +pglite in use by the server at .*readyz answered 200/m);
    },
  );
});
