/**
 * The users page must answer a search in under 200 ms on the server with 10,000 users.
 * Seeds a fresh embedded database (and a fresh PostgreSQL database when one is reachable at
 * TEST_DATABASE_URL / postgres://postgres@127.0.0.1:5432/test), starts the real server, signs an
 * administrator in over HTTP and runs searches through admin-get-users.php, timing each on the
 * server (Fastify's reply.elapsedTime) and on the client.
 *
 *   node --import tsx bench/admin-users-search.ts [--users 10000] [--searches 50]
 *
 * Results go to bench/results/admin-users-search.json; the exit code is 1 when a p95 is over budget.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseHandle } from '@meetcast/db';
import pg from 'pg';
import { buildApp, loadConfig } from '@meetcast/server';
import { seedUsers } from '../scripts/seed-users.js';
import { percentile } from './percentile';

const BUDGET_MS = 200;
const ADMIN = { email: 'bench.admin@example.test', password: 'bench admin password' };
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What an administrator types and clicks on the users page. */
const SEARCHES: Record<string, string>[] = [
  { search: 'anna' },
  { search: 'smith', sort: 'username', direction: 'asc' },
  { search: 'müller' },
  { search: 'emma.garcia' },
  { search: '4242' },
  { search: 'example.test', sort: 'email', direction: 'desc' },
  { search: 'zz-nobody-matches' },
  { search: 'a', sort: 'created_at', direction: 'desc' },
  { search: 'tanaka', status: 'disabled' },
  { search: 'o', sort: 'status', page: '3' },
  { sort: 'username', direction: 'desc', page: '120' },
  { role_id: '2', sort: 'email', per_page: '100' },
];

const round = (value: number) => Math.round(value * 10) / 10;

async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `meetcast_bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleaner = new pg.Client({ connectionString: POSTGRES_URL });
      await cleaner.connect();
      await cleaner.query(`drop database if exists ${name} with (force)`);
      await cleaner.end();
    },
  };
}

async function run(kind: 'pglite' | 'postgres', handle: DatabaseHandle, userCount: number, searchCount: number) {
  const seeded = await seedUsers(handle.db, { count: userCount, password: 'seeded password 123', admin: ADMIN });
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-bench-'));
  const { app } = await buildApp(
    loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_MULTIPLIER: '100' }),
    handle,
  );
  const serverTimes: number[] = [];
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/api/admin-get-users.php') serverTimes.push(reply.elapsedTime);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
  const post = async (name: string, fields: Record<string, string>) => {
    const response = await fetch(`${base}/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: response.status, body: (await response.json()) as { data?: { token?: string; total?: number } } };
  };
  try {
    const login = await post('login.php', ADMIN);
    const token = login.body.data?.token;
    if (!token) throw new Error(`administrator sign-in failed (${login.status})`);
    for (const fields of SEARCHES.slice(0, 3)) await post('admin-get-users.php', { ...fields, token }); // warm-up
    serverTimes.length = 0;
    const clientTimes: number[] = [];
    const totals = new Map<string, number>();
    for (let index = 0; index < searchCount; index++) {
      const fields = SEARCHES[index % SEARCHES.length] as Record<string, string>;
      const started = performance.now();
      const answer = await post('admin-get-users.php', { ...fields, token });
      clientTimes.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`search ${JSON.stringify(fields)} answered ${answer.status}`);
      totals.set(JSON.stringify(fields), answer.body.data?.total ?? -1);
    }
    // Requests run one after another, so the server's timings line up with the searches.
    const bySearch = new Map<string, number[]>();
    serverTimes.forEach((time, index) => {
      const key = JSON.stringify(SEARCHES[index % SEARCHES.length]);
      bySearch.set(key, [...(bySearch.get(key) ?? []), time]);
    });
    const server = [...serverTimes].sort((a, b) => a - b);
    const client = [...clientTimes].sort((a, b) => a - b);
    return {
      backend: kind,
      users: userCount + 1,
      seed_ms: seeded.milliseconds,
      searches: searchCount,
      server_ms: {
        p50: round(percentile(server, 50)),
        p95: round(percentile(server, 95)),
        max: round(server.at(-1) ?? NaN),
      },
      client_ms: {
        p50: round(percentile(client, 50)),
        p95: round(percentile(client, 95)),
        max: round(client.at(-1) ?? NaN),
      },
      budget_ms: BUDGET_MS,
      // The machine's 1-minute load average when the run ended: timings on a busy machine run long.
      load_average: round(loadavg()[0] ?? 0),
      within_budget: percentile(server, 95) < BUDGET_MS,
      by_search: Object.fromEntries(
        [...bySearch].map(([key, times]) => [
          key,
          {
            matches: totals.get(key),
            median_ms: round(
              percentile(
                [...times].sort((a, b) => a - b),
                50,
              ),
            ),
          },
        ]),
      ),
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: { users: { type: 'string', default: '10000' }, searches: { type: 'string', default: '50' } },
  });
  const userCount = Number(values.users);
  const searchCount = Number(values.searches);
  const results = [];

  const pglite = await openDatabase({ inMemory: true });
  try {
    results.push(await run('pglite', pglite, userCount, searchCount));
  } finally {
    await pglite.close();
  }

  const postgres = await freshPostgres();
  if (postgres) {
    const handle = await openDatabase({ url: postgres.url });
    try {
      results.push(await run('postgres', handle, userCount, searchCount));
    } finally {
      await handle.close();
      await postgres.drop();
    }
  } else {
    console.log(`PostgreSQL not reachable at ${POSTGRES_URL}: measured the embedded database only`);
  }

  for (const result of results) {
    console.log(
      `${result.backend}: ${result.users} users (seeded in ${result.seed_ms} ms), ${result.searches} searches, ` +
        `server p50 ${result.server_ms.p50} ms, p95 ${result.server_ms.p95} ms, max ${result.server_ms.max} ms ` +
        `(client p95 ${result.client_ms.p95} ms, load ${result.load_average}) — budget ${BUDGET_MS} ms: ${result.within_budget ? 'OK' : 'OVER'}`,
    );
  }
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/admin-users-search.json', import.meta.url),
    `${JSON.stringify({ measured_at: new Date().toISOString(), results }, null, 2)}\n`,
  );
  if (results.some((result) => !result.within_budget)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
