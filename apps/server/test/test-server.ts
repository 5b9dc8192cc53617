import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { MailSink } from '@meetcast/testkit/mail-sink';
import { createTestDatabase, type Backend, type TestDatabase } from './test-database.js';

export type Fields = Record<string, string | number | undefined>;

export interface ApiAnswer<T = unknown> {
  httpStatus: number;
  body: { status: 'success' | 'error'; message: string; data?: T };
}

export interface TestServer {
  baseUrl: string;
  built: BuiltApp;
  mail: MailSink;
  database: TestDatabase;
  /** A form post to /api/{name}, the way the web client and the acceptance tests call. */
  post<T = unknown>(name: string, fields?: Fields, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
  /** Signs up and confirms through the real mail flow; returns the token and user. */
  signUp(options?: { username?: string; email?: string; password?: string }): Promise<SignedIn>;
  close(): Promise<void>;
}

export interface SignedIn {
  token: string;
  user: { id: number; email: string; role_id: number; username: string };
  email: string;
  password: string;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${counter++}@example.com`;

/**
 * A stand-in for the built web app (`WEB_DIST_DIR`): its index.html alone, for the routes that put
 * something into the page (the channel page's tags and data). The suite runs before the app is built.
 */
export function webDistWithIndex() {
  const dir = mkdtempSync(join(tmpdir(), 'meetcast-web-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta name="description" content="Meetcast" /><title>Meetcast</title></head><body><div id="root"></div></body></html>',
  );
  return dir;
}

/** A real server on a loopback port with a fresh database and a real SMTP sink behind it. */
export async function startTestServer(backend: Backend, env: Record<string, string> = {}): Promise<TestServer> {
  const mail = new MailSink();
  const smtpUrl = await mail.start();
  const database = await createTestDatabase(backend);
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-test-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SMTP_URL: smtpUrl,
    RATE_LIMIT_MULTIPLIER: '100',
    // Dozens of test servers start here: none keeps an idle composer browser unless a test asks.
    COMPOSER_SPARES: '0',
    // Only the broadcast tests compose; the others need no worker polling the database for claims.
    COMPOSER_WORKER: 'off',
    // Suites start many broadcasts for one host and never end them; the slot limits have their own test.
    BROADCAST_LIMIT_PER_ACCOUNT: '100',
    // Each test server counts in its own Redis keys, so suites never see each other's limits.
    REDIS_PREFIX: `test-${process.pid}-${Date.now()}-${counter++}`,
    // The streaming tests' receivers and fake platforms' ingests listen on this machine; a test of the
    // address policy itself passes RTMP_ALLOW_PRIVATE: '' to refuse them like a real server would.
    RTMP_ALLOW_PRIVATE: '127.0.0.1',
    // Dozens of servers cannot all start a coturn on one port: the TURN tests turn it on with a port of their own.
    TURN: 'off',
    ...env,
  });
  const built = await buildApp(config, database.handle);
  // HOST lets the network tests reach it from a namespace; everyone else keeps it on the loopback.
  await built.app.listen({ port: 0, host: env.HOST ?? '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;

  const post: TestServer['post'] = async (name, fields = {}, headers = {}) => {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
    const response = await fetch(`${baseUrl}/api/${name}`, { method: 'POST', body: form, headers });
    return { httpStatus: response.status, body: (await response.json()) as ApiAnswer['body'] } as never;
  };

  const signUp: TestServer['signUp'] = async (options = {}) => {
    const email = options.email ?? uniqueEmail();
    const password = options.password ?? 'correct horse battery';
    const before = mail.messages.length;
    const signup = await post('signup.php', { username: options.username ?? 'Test User', email, password });
    if (signup.body.status !== 'success') throw new Error(`signup failed: ${signup.body.message}`);
    const code = await mail.codeFor(email, before);
    const confirmed = await post<SignedIn['user'] extends never ? never : { token: string; data: SignedIn['user'] }>(
      'confirm-signup.php',
      { email, code },
    );
    if (!confirmed.body.data) throw new Error(`confirm failed: ${confirmed.body.message}`);
    return { token: confirmed.body.data.token, user: confirmed.body.data.data, email, password };
  };

  return {
    baseUrl,
    built,
    mail,
    database,
    post,
    signUp,
    close: async () => {
      await built.app.close();
      await database.drop();
      await mail.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test server with people signed up on it, in the order named: the preamble of most API test
 * files, `beforeAll(async () => void ([server, ann, bob] = await startWithPeople(backend, 'Ann', 'Bob')))`;
 * `{ backend, env }` starts it with more environment.
 */
export async function startWithPeople<const Names extends string[]>(
  on: Backend | { backend: Backend; env: Record<string, string> },
  ...names: Names
): Promise<[TestServer, ...{ [K in keyof Names]: SignedIn }]> {
  const server = typeof on === 'string' ? await startTestServer(on) : await startTestServer(on.backend, on.env);
  const people: SignedIn[] = [];
  for (const username of names) people.push(await server.signUp({ username }));
  return [server, ...people] as [TestServer, ...{ [K in keyof Names]: SignedIn }];
}

/** Keeps every answer body the server gives from now on, as JSON text: to check that no secret ever left it. */
export function recordAnswers(server: TestServer, answers: string[]) {
  const post = server.post;
  server.post = async (name, fields, headers) => {
    const answer = await post(name, fields, headers);
    answers.push(JSON.stringify(answer.body));
    return answer as never;
  };
}
