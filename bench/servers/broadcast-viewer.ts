// The real Meetcast server on embedded PGlite (its own managed Janus) with a public meeting whose
// broadcast is live, its room placed on Janus (so the viewer count asks Janus, as in production), and
// its host signed in; prints {port, slug, token, pid}. No composer: what viewers ask is measured.
import type { AddressInfo } from 'node:net';
import { eq, liveBroadcasts, meetings, users } from '@meetcast/db';
import { buildApp, createAccount, hashPassword } from '@meetcast/server';
import { benchConfig } from './bench-config.js';

const { config } = benchConfig({ LOG_LEVEL: 'silent', COMPOSER_WORKER: 'off', COMPOSER_SPARES: '0' });
const { app, context } = await buildApp(config);
const host = await createAccount(context, 'Bench Host', 'host@example.com', await hashPassword('bench password'), 'en');
await context.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, host.id));
const token = await context.sessions.create(host.id, {});
const slug = 'broadcast-viewer-bench';
const now = Date.now();
const [meeting] = await context.db
  .insert(meetings)
  .values({
    hostId: host.id,
    name: 'Broadcast viewer bench',
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
await context.media.ensureRoom({ id: meeting!.id, name: meeting!.name });
await context.db
  .insert(liveBroadcasts)
  .values({ meetingId: meeting!.id, startedBy: host.id, state: 'live', startedAt: new Date() });
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port, slug, token, pid: process.pid }));
