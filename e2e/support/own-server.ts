import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@meetcast/server/tooling';
import { readCode } from '../fixtures';
import { uniqueEmail } from './api';
import { E2E_PORTS } from './ports';

/**
 * A Meetcast server of a spec's own (its environment differs from the suite's server), started from
 * source on the loopback with a fresh embedded database, mail to the suite's sink and the built web app.
 */
export interface OwnServer {
  port: number;
  url: string;
  post<T>(call: string, fields: Record<string, string>): Promise<{ status: string; message: string; data?: T }>;
  /** An account signed up and confirmed through the API: its session token. */
  signUp(username: string): Promise<string>;
  logs(): string;
  stop(): Promise<void>;
}

export async function startOwnServer(env: Record<string, string>): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-own-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(dataDir, 'server.log');
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
      PUBLIC_URL: url,
      WEB_DIST_DIR: resolve('apps/web/dist'),
      RATE_LIMIT_MULTIPLIER: '100',
      LOG_LEVEL: 'warn',
      COMPOSER_SPARES: '0',
      ...env,
    },
    stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')],
  });
  const logs = () => readFileSync(logFile, 'utf8').slice(-20_000);
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 8000))]);
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${url}/readyz`).catch(() => undefined))?.ok) {
    if (server.exitCode !== null || Date.now() > deadline) {
      const log = logs();
      await stop();
      throw new Error(`the server did not start:\n${log}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  const post = async <T>(call: string, fields: Record<string, string>) => {
    const response = await fetch(`${url}/api/${call}`, { method: 'POST', body: new URLSearchParams(fields) });
    return (await response.json()) as { status: string; message: string; data?: T };
  };
  const signUp = async (username: string) => {
    const email = uniqueEmail(username.toLowerCase().replaceAll(' ', '-'));
    await post('signup.php', { username, email, password: `${username} password` });
    const confirmed = await post<{ token: string }>('confirm-signup.php', { email, code: await readCode(email) });
    if (!confirmed.data?.token) throw new Error(`sign-up refused: ${confirmed.message}`);
    return confirmed.data.token;
  };
  return { port, url, post, signUp, logs, stop };
}
