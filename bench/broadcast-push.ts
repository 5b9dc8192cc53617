// Push, don't poll (ADR 022): how long a broadcast's change takes to reach the sockets that follow it.
// Two real server processes share a fresh PostgreSQL database and Redis; the host changes the overlay
// with set-broadcast-overlay.php on the first, and a studio socket (the host) and a channel-page socket
// (no session) wait on each process. Each change is timed from the request's start to the event's
// arrival. Budget: every push within 500 ms (p95 printed; the maximum decides).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import {
  BROADCAST_EVENT,
  BROADCAST_EVENTS_NAMESPACE,
  BROADCAST_EVENTS_PROTOCOL_VERSION,
  BroadcastEventSchema,
} from '@meetcast/contracts';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { percentile } from './percentile.js';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 30);
const BUDGET_MS = 500;
const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface ServerInfo {
  port: number;
  slug?: string;
  token?: string;
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const script = new URL('./servers/broadcast-push.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { child, info: JSON.parse(line) as ServerInfo };
  }
  throw new Error('a push bench server exited before it listened');
}

/** A socket that notes when each change (by the banner it carries, or any event) arrived. */
function follow(port: number, slug: string, token?: string) {
  const socket: Socket = io(`http://127.0.0.1:${port}${BROADCAST_EVENTS_NAMESPACE}`, {
    path: '/socket.io/',
    transports: ['websocket'],
    auth: { protocol: BROADCAST_EVENTS_PROTOCOL_VERSION, meetId: slug, ...(token ? { token } : {}) },
  });
  const arrivals: number[] = [];
  socket.on(BROADCAST_EVENT, (payload: unknown) => {
    BroadcastEventSchema.parse(payload);
    arrivals.push(performance.now());
  });
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, arrivals, ready };
}

const database = `meetcast_bench_push_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
await admin.connect();
await admin.query(`create database ${database}`);
const databaseUrl = new URL(ADMIN_DATABASE_URL);
databaseUrl.pathname = `/${database}`;
const shared = {
  BENCH_DATABASE_URL: databaseUrl.toString(),
  BENCH_REDIS_URL: REDIS_URL,
  BENCH_REDIS_PREFIX: `bench-push-${database}`,
};
const servers: ChildProcess[] = [];
try {
  // The first makes the schema and the live meeting; the second starts on the migrated database.
  const first = await startServer({ ...shared, BENCH_ROLE: 'first' });
  servers.push(first.child);
  const second = await startServer(shared);
  servers.push(second.child);
  const { slug, token } = first.info as Required<ServerInfo>;
  const followers = {
    'studio, same process': follow(first.info.port, slug, token),
    'studio, other process': follow(second.info.port, slug, token),
    'channel page, same process': follow(first.info.port, slug),
    'channel page, other process': follow(second.info.port, slug),
  };
  await Promise.all(Object.values(followers).map((follower) => follower.ready));
  // Let the sockets' room joins reach Redis before the first change.
  await new Promise((resolve) => setTimeout(resolve, 500));

  const delays = new Map<string, number[]>(Object.keys(followers).map((name) => [name, []]));
  let missed = 0;
  for (let change = 0; change < CHANGES; change++) {
    const before = new Map(Object.entries(followers).map(([name, follower]) => [name, follower.arrivals.length]));
    const startedAt = performance.now();
    const response = await fetch(`http://127.0.0.1:${first.info.port}/api/set-broadcast-overlay.php`, {
      method: 'POST',
      body: new URLSearchParams({ token, meetId: slug, banner: `Change ${change}` }),
    });
    if (response.status !== 200) throw new Error(`set-broadcast-overlay.php answered ${response.status}`);
    const deadline = startedAt + 5000;
    while (
      performance.now() < deadline &&
      Object.entries(followers).some(([name, follower]) => follower.arrivals.length === before.get(name))
    ) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    for (const [name, follower] of Object.entries(followers)) {
      const arrival = follower.arrivals[before.get(name)!];
      if (arrival === undefined) missed += 1;
      else delays.get(name)!.push(arrival - startedAt);
    }
    // Changes a person makes are seconds apart; a burst within the push's grouping window is one push.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  for (const follower of Object.values(followers)) follower.socket.close();

  console.log(
    `${CHANGES} overlay changes; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  let worst = 0;
  for (const [name, times] of delays) {
    worst = Math.max(worst, ...times);
    console.log(
      `${name.padEnd(28)} p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, ` +
        `max ${Math.max(...times).toFixed(0)} ms over ${times.length}`,
    );
  }
  const isWithin = missed === 0 && worst <= BUDGET_MS;
  console.log(`missed pushes: ${missed}; budget every push ≤ ${BUDGET_MS} ms: ${isWithin ? 'met' : 'NOT met'}`);
  process.exitCode = isWithin ? 0 : 1;
} finally {
  for (const child of servers) child.kill();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}
