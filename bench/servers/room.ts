/**
 * The server the room bench measures, in its own process: the real buildApp() with its managed
 * Janus, a fresh embedded database, the built web app, and one meeting to join. Prints one JSON
 * line with what the bench needs (address, meeting slug, process ids), then serves until killed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { meetings, users } from '@meetcast/db';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/env.js';

const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-bench-'));
const config = loadConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MULTIPLIER: '1000',
});
const { app, context } = await buildApp(config);
await app.listen({ port: 0, host: '127.0.0.1' });
const [host] = await context.db
  .insert(users)
  .values({
    username: 'Bench Host',
    email: `bench.${randomBytes(4).toString('hex')}@example.com`,
    emailVerifiedAt: new Date(),
  })
  .returning();
const slug = `bench-${randomBytes(4).toString('hex')}`;
const [meeting] = await context.db
  .insert(meetings)
  .values({
    hostId: host!.id,
    name: 'Bench meeting',
    slug,
    isSchedule: 1,
    startTime: new Date(),
    endTime: new Date(Date.now() + 3_600_000),
  })
  .returning();
await context.media.ensureRoom(meeting!);
const port = (app.server.address() as AddressInfo).port;
console.log(
  JSON.stringify({
    url: `http://127.0.0.1:${port}`,
    slug,
    serverPid: process.pid,
    janusPid: context.media.managed?.pid,
  }),
);

const shutdown = async () => {
  await app.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
