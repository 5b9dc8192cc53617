// The real Meetcast server on embedded PGlite with a public meeting whose broadcast is live (a row, no
// composer: the chat is what is measured); prints {port, slug, pid}.
import type { AddressInfo } from 'node:net';
import { eq, liveBroadcasts, meetings, users } from '@meetcast/db';
import { buildApp, createAccount, hashPassword } from '@meetcast/server';
import { benchConfig } from './bench-config.js';

const { config } = benchConfig({ LOG_LEVEL: 'silent', COMPOSER_WORKER: 'off', COMPOSER_SPARES: '0' });
const { app, context } = await buildApp(config);
const host = await createAccount(context, 'Bench Host', 'host@example.com', await hashPassword('bench password'), 'en');
await context.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, host.id));
const slug = 'viewer-chat-bench';
const now = Date.now();
const [meeting] = await context.db
  .insert(meetings)
  .values({
    hostId: host.id,
    name: 'Viewer chat bench',
    slug,
    isSchedule: 0,
    isPrivate: 2,
    isPassword: 2,
    startTime: new Date(now),
    endTime: new Date(now + 3600_000),
    repeat: 0,
    state: 'live',
  })
  .returning();
await context.db
  .insert(liveBroadcasts)
  .values({ meetingId: meeting!.id, startedBy: host.id, state: 'live', startedAt: new Date() });
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port, slug, pid: process.pid }));
