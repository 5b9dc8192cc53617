// Load, figures from one run: tokenverify.php at 200 connections for 60 s (budget: 0 errors,
// p99 < 50 ms), then 1,000 simultaneous sign-ups on PostgreSQL, 100 of them racing for an address
// another sign-up also uses (budget: no 5xx; the database holds exactly the accounts that were answered).
// BENCH_SECONDS shortens the first part; TEST_DATABASE_URL names the PostgreSQL (trust auth).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { count, users } from '@meetcast/db';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp, loadConfig } from '@meetcast/server';

const CONNECTIONS = 200;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SIGNUPS = 1000;
const RACING = 100;
const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function startServer(script: string): Promise<{ child: ChildProcess; port: number; token: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(script, import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { child, ...(JSON.parse(line) as { port: number; token: string }) };
  }
  throw new Error(`${script} exited before it listened`);
}

async function tokenverifyUnderLoad() {
  const server = await startServer('./servers/meetcast.ts');
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${server.port}/api/tokenverify.php`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${server.token}`,
    });
    const failures = result.errors + result.timeouts + result.non2xx;
    console.log(
      `tokenverify.php, ${CONNECTIONS} connections, ${DURATION_SECONDS} s: ${result.requests.total} requests, ` +
        `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `${failures} errors/timeouts/non-2xx (budget: 0 errors, p99 < 50 ms)`,
    );
    return failures === 0 && result.latency.p99 < 50;
  } finally {
    server.child.kill();
  }
}

async function simultaneousSignups() {
  const name = `meetcast_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'meetcast-load-')),
    DATABASE_URL: url.toString(),
    LOG_LEVEL: 'silent',
    // One machine signs everybody up: the per-address limit would otherwise stop it at ten.
    RATE_LIMIT_MULTIPLIER: '1000',
  });
  const { app, context } = await buildApp(config);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const emails = Array.from({ length: SIGNUPS }, (_, index) => `load.${index % (SIGNUPS - RACING)}@example.com`);
    const started = performance.now();
    const statuses = await Promise.all(
      emails.map(async (email, index) => {
        const response = await fetch(`${base}/api/signup.php`, {
          method: 'POST',
          body: new URLSearchParams({ username: `Load ${index}`, email, password: 'load test password' }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const tally = new Map<number, number>();
    for (const status of statuses) tally.set(status, (tally.get(status) ?? 0) + 1);
    const answered = new Set(emails.filter((_, index) => statuses[index] === 200));
    const [{ stored } = { stored: -1 }] = await context.db.select({ stored: count() }).from(users);
    const serverErrors = statuses.filter((status) => status >= 500).length;
    console.log(
      `${SIGNUPS} simultaneous sign-ups (${RACING} racing for a taken address) on PostgreSQL in ${seconds.toFixed(1)} s: ` +
        `${[...tally].map(([status, n]) => `${n}× ${status}`).join(', ')}; ${answered.size} addresses answered, ` +
        `${stored} accounts stored (budget: 0 answers of 5xx, stored = answered)`,
    );
    return serverErrors === 0 && stored === answered.size;
  } finally {
    await app.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const tokenverifyOk = await tokenverifyUnderLoad();
const signupsOk = await simultaneousSignups();
process.exitCode = tokenverifyOk && signupsOk ? 0 : 1;
