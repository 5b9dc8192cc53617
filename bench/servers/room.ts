/**
 * The server the room bench measures, in its own process: the real buildApp() with its managed
 * Janus, a fresh embedded database, the built web app, and one meeting to join. Prints one JSON
 * line with what the bench needs (address, meeting slug, process ids), then serves until killed.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { meetings, openDatabase, users } from '@meetcast/db';
import { buildApp, JanusClient } from '@meetcast/server';
import { benchConfig } from './bench-config.js';

const { config, dataDir } = benchConfig({ LOG_LEVEL: 'warn' });
// What one join costs: database statements and Janus requests, read by the bench at `statsUrl`.
let queries = 0;
// BENCH_QUERIES=1 also prints each statement (on stderr), to see what a join asks.
const database = await openDatabase({
  dataDir,
  onQuery: (query) => {
    queries += 1;
    if (process.env.BENCH_QUERIES) console.error(`query ${queries}: ${query}`);
  },
});
const { app, context } = await buildApp(config, database);
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
// A second room on the same managed Janus, created with the settings MediaService gives a meeting's
// room (createRoom, and its MAX_PUBLISHERS), for bench/room-vs-janus.ts: its bare page joins it with
// janus.js directly, not through our /janus proxy, so it needs the API secret the proxy otherwise adds.
const managedJanus = context.media.managed!;
const bareRoom = {
  room: 1 + (randomBytes(4).readUInt32BE(0) % (2 ** 31 - 2)),
  pin: randomBytes(24).toString('base64url'),
};
const bareClient = new JanusClient(managedJanus.url!, {
  apiSecret: managedJanus.apiSecret,
  adminKey: managedJanus.adminKey,
});
await bareClient.connect();
await bareClient.createRoom({
  ...bareRoom,
  secret: randomBytes(24).toString('base64url'),
  description: 'Bench meeting',
  publishers: 100,
});
bareClient.close();
const port = (app.server.address() as AddressInfo).port;
const stats = createServer((_request, response) => {
  if (process.env.BENCH_QUERIES) console.error(`stats read at query ${queries}`);
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ queries, janusRequests: context.media.janusRequests }));
});
await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
console.log(
  JSON.stringify({
    url: `http://127.0.0.1:${port}`,
    statsUrl: `http://127.0.0.1:${(stats.address() as AddressInfo).port}`,
    slug,
    serverPid: process.pid,
    janusPid: context.media.managed?.pid,
    janus: { url: managedJanus.url, apiSecret: managedJanus.apiSecret, ...bareRoom },
  }),
);

const shutdown = async () => {
  stats.close();
  await app.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
