import type { AddressInfo } from 'node:net';
import { eq, liveBroadcasts, meetings, users } from '@meetcast/db';
import { buildApp, createAccount, hashPassword } from '@meetcast/server';
import { benchConfig } from './bench-config.js';

/**
 * The real server on embedded PGlite with a signed-in host and a public meeting whose broadcast is
 * live (a row: no composer). `beforeLive` runs between the meeting and its broadcast (for example to
 * place its room on Janus); `settings` as for benchConfig. Prints {port, slug, token, pid} once listening.
 */
export async function serveLiveMeeting(
  name: string,
  slug: string,
  beforeLive?: (built: Awaited<ReturnType<typeof buildApp>>, meetingId: number) => Promise<void>,
  settings: Record<string, string> = {},
) {
  const { config } = benchConfig({ LOG_LEVEL: 'silent', COMPOSER_WORKER: 'off', COMPOSER_SPARES: '0', ...settings });
  const built = await buildApp(config);
  const { app, context } = built;
  const host = await createAccount(
    context,
    'Bench Host',
    'host@example.com',
    await hashPassword('bench password'),
    'en',
  );
  await context.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, host.id));
  const token = await context.sessions.create(host.id, {});
  const now = Date.now();
  const [meeting] = await context.db
    .insert(meetings)
    .values({
      hostId: host.id,
      name,
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
  await beforeLive?.(built, meeting!.id);
  await context.db
    .insert(liveBroadcasts)
    .values({ meetingId: meeting!.id, startedBy: host.id, state: 'live', startedAt: new Date() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port, slug, token, pid: process.pid }));
}
