import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { MailSink } from '@meetcast/testkit/mail-sink';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { uniqueEmail } from './test-server.js';

/**
 * A TCP proxy in front of PostgreSQL that can cut every connection and refuse new ones, as a
 * network partition or a database failover would.
 */
class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  private isCut = false;
  private readonly server: Server;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      if (this.isCut) {
        client.destroy();
        return;
      }
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  cut() {
    this.isCut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore() {
    this.isCut = false;
  }

  close() {
    this.cut();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const OUTAGE_SECONDS = 15;

describe('PostgreSQL connection lost', () => {
  let database: TestDatabase;
  let proxy: CuttableProxy;
  let built: BuiltApp;
  let baseUrl: string;
  const mail = new MailSink();
  const post = async (name: string, fields: Record<string, string>) => {
    const response = await fetch(`${baseUrl}/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: response.status, body: (await response.json()) as { data?: { token: string } } };
  };
  const signUp = async () => {
    const email = uniqueEmail('outage');
    const password = 'outage test password';
    const before = mail.messages.length;
    await post('signup.php', { username: 'Outage', email, password });
    const confirmed = await post('confirm-signup.php', { email, code: await mail.codeFor(email, before) });
    return { email, password, token: confirmed.body.data!.token };
  };

  beforeAll(async () => {
    // Migrated directly; the server then reaches the same database only through the proxy.
    database = await createTestDatabase('postgres');
    const direct = new URL(database.url!);
    proxy = new CuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.port = String(await proxy.listen());
    built = await buildApp(
      loadConfig({
        // No composer: a spare stage (Xvfb, PulseAudio, Chromium) per process is not what this tests.
        COMPOSER_WORKER: 'off',
        PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'meetcast-outage-')),
        LOG_LEVEL: 'silent',
        DATABASE_URL: proxied.toString(),
        SMTP_URL: await mail.start(),
        RATE_LIMIT_MULTIPLIER: '100',
      }),
    );
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await built.app.close();
    await mail.close();
    await proxy.close();
    await database.drop();
  });

  it(`answers 503 while the database is away for ${OUTAGE_SECONDS} s, then recovers with nothing lost`, async () => {
    const account = await signUp();
    proxy.cut();
    const outageEnds = Date.now() + OUTAGE_SECONDS * 1000;
    const statuses = new Set<number>();
    while (Date.now() < outageEnds) {
      const login = await fetch(`${baseUrl}/api/login.php`, {
        method: 'POST',
        body: new URLSearchParams({ email: account.email, password: account.password }),
      });
      statuses.add(login.status);
      if (login.status === 503) expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await login.json()) as { status: string }).status).toBe('error');
      expect((await fetch(`${baseUrl}/readyz`)).status).toBe(503);
      expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect([...statuses]).toEqual([503]);

    proxy.restore();
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < 10_000 && status !== 200) {
      status = (await post('login.php', { email: account.email, password: account.password })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
    const later = await signUp();
    expect((await post('tokenverify.php', { token: later.token })).status).toBe(200);
    expect((await post('tokenverify.php', { token: account.token })).status).toBe(200);
  }, 90_000);
});
