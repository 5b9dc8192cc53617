/**
 * The server the composer bench measures, in its own process: the real buildApp() with its managed
 * Janus and an in-process composer worker (COMPOSER_SPARES as set, default 1), a fresh embedded
 * database, the built web app, one host with a session and one meeting. Prints one JSON line
 * prefixed `BENCH ` with what the bench needs, and serves until killed; its log (pino's JSON lines on
 * stdout, level info) carries the composer's step timings, which the bench reads.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { eq, meetings, users } from '@meetcast/db';
import { buildApp, createAccount, hashPassword } from '@meetcast/server';
import { benchConfig } from './bench-config.js';

const { config, dataDir } = benchConfig({
  LOG_LEVEL: 'info',
  COMPOSER_WORKER: 'local',
  // The benches' RTMP receivers listen on loopback, which destinations may not reach otherwise.
  RTMP_ALLOW_PRIVATE: process.env.RTMP_ALLOW_PRIVATE ?? '127.0.0.1',
});

const { app, context } = await buildApp(config);
await app.listen({ port: 0, host: '127.0.0.1' });
const host = await createAccount(
  context,
  'Bench Host',
  'bench.host@example.com',
  await hashPassword('bench pw 123'),
  'en',
);
await context.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, host.id));
const token = await context.sessions.create(host.id, {});
const slug = 'composer-bench';
const [meeting] = await context.db
  .insert(meetings)
  .values({
    hostId: host.id,
    name: 'Composer bench',
    slug,
    isSchedule: 1,
    startTime: new Date(),
    endTime: new Date(Date.now() + 6 * 3_600_000),
  })
  .returning();
await context.media.ensureRoom(meeting!);
const port = (app.server.address() as AddressInfo).port;
console.log(
  `BENCH ${JSON.stringify({
    url: `http://127.0.0.1:${port}`,
    slug,
    token,
    serverPid: process.pid,
    janusPid: context.media.managed?.pid,
    dataDir,
  })}`,
);

const shutdown = async () => {
  await app.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
