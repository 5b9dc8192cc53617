import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailSink } from '@meetcast/testkit/mail-sink';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { createTestDatabase } from './test-database.js';
import { uniqueEmail } from './test-server.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface FormAnswer {
  httpStatus: number;
  body: { status?: string; message?: string; data?: { token: string; data: { id: number } } };
}

/** A form post to `{baseUrl}/api/{name}`, as the web client calls. */
export async function postForm(baseUrl: string, name: string, fields: Record<string, string>): Promise<FormAnswer> {
  const response = await fetch(`${baseUrl}/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
  return { httpStatus: response.status, body: (await response.json()) as FormAnswer['body'] };
}

export interface TestCluster {
  apps: BuiltApp[];
  /** Each process's own address, in the order of `apps`. */
  urls: string[];
  /**
   * Signs up on the first process and confirms the mailed code on the process `confirmOn` (codes,
   * like everything else, live in the shared database).
   */
  signUp(
    username: string,
    password: string,
    confirmOn?: number,
  ): Promise<{ email: string; token: string; userId: number }>;
  close(): Promise<void>;
}

/**
 * Two server processes on one PostgreSQL database and one Redis (under a prefix of their own), with
 * one mail sink: one installation, as the scale-out tests need it. No composer worker: a spare stage
 * (Xvfb, PulseAudio, Chromium) per process is not what they test.
 */
export async function startCluster(name: string, env: Record<string, string> = {}): Promise<TestCluster> {
  const mail = new MailSink();
  const smtpUrl = await mail.start();
  const database = await createTestDatabase('postgres');
  const redisPrefix = `test-${name}-${process.pid}-${Date.now()}`;
  const apps: BuiltApp[] = [];
  const urls: string[] = [];
  const dataDirs: string[] = [];
  for (let index = 0; index < 2; index++) {
    dataDirs.push(mkdtempSync(join(tmpdir(), `meetcast-${name}-`)));
    const config = loadConfig({
      COMPOSER_WORKER: 'off',
      PORT: '0',
      DATA_DIR: dataDirs[index]!,
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      SMTP_URL: smtpUrl,
      RATE_LIMIT_MULTIPLIER: '1',
      ...env,
    });
    const built = await buildApp(config);
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(built);
    urls.push(`http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`);
  }
  return {
    apps,
    urls,
    async signUp(username, password, confirmOn = 0) {
      const email = uniqueEmail(name);
      const before = mail.messages.length;
      await postForm(urls[0]!, 'signup.php', { username, email, password });
      const code = await mail.codeFor(email, before);
      const confirmed = await postForm(urls[confirmOn]!, 'confirm-signup.php', { email, code });
      if (!confirmed.body.data) throw new Error(`confirm failed: ${confirmed.body.message}`);
      return { email, token: confirmed.body.data.token, userId: confirmed.body.data.data.id };
    },
    async close() {
      for (const built of apps) await built.app.close();
      await database.drop();
      await mail.close();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
