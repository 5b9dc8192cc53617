import type { AddressInfo } from 'node:net';
import { count, eq, openDatabase, sentReminders, users, type DatabaseHandle } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { addMeeting, nowSeconds, HOUR } from './meeting-helpers.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, startWithPeople, uniqueEmail, type SignedIn, type TestServer } from './test-server.js';

type Listed = { data: { text: string }[] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function reminderCount(server: TestServer, who: SignedIn, name: string) {
  const listed = await server.post<Listed>('get-user-notification.php', { token: who.token });
  return (listed.body.data?.data ?? []).filter((n) => n.text.includes(name) && n.text.includes('starts in')).length;
}

const reminderMails = (server: TestServer, to: string, name: string) =>
  server.mail.messages.filter((m) => m.to.includes(to) && m.subject.startsWith(`Reminder: ${name}`)).length;

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error('condition not met in time');
}

describe.each(BACKENDS)('meeting reminders on %s', (backend) => {
  let server: TestServer;
  let ann: SignedIn;
  let bob: SignedIn;
  beforeAll(async () => {
    [server, ann, bob] = await startWithPeople({ backend, env: { REMINDER_INTERVAL_SECONDS: '1' } }, 'Ann', 'Bob');
  });
  afterAll(() => server.close());

  it('reminds host and invitees once, at their own lead time, and not for cancelled meetings', async () => {
    const db = server.database.handle.db;
    await db.update(users).set({ reminderMinutes: 30 }).where(eq(users.id, bob.user.id));
    // Ann's reminders stay off until the dropped meeting is cancelled, so no pass sees it first.
    await db.update(users).set({ reminderMinutes: 0 }).where(eq(users.id, ann.user.id));
    const outsider = uniqueEmail('outsider');
    const soon = nowSeconds() + 5 * 60;
    await addMeeting(server, ann, {
      name: 'Soon call',
      start_time: soon,
      end_time: soon + HOUR,
      invitees: `${bob.email},${outsider}`,
    });
    const later = nowSeconds() + 20 * 60;
    await addMeeting(server, ann, {
      name: 'Later call',
      start_time: later,
      end_time: later + HOUR,
      invitees: bob.email,
    });
    const dropped = await addMeeting(server, ann, { name: 'Dropped call', start_time: soon, end_time: soon + HOUR });
    await server.post('cancel-meeting.php', { token: ann.token, id: dropped.id });
    await db.update(users).set({ reminderMinutes: 10 }).where(eq(users.id, ann.user.id));

    await waitUntil(
      async () =>
        (await reminderCount(server, ann, 'Soon call')) > 0 && (await reminderCount(server, bob, 'Later call')) > 0,
    );
    await sleep(2500); // a few more ticks must not send anything again
    expect(await reminderCount(server, ann, 'Soon call')).toBe(1);
    expect(await reminderCount(server, bob, 'Soon call')).toBe(1);
    expect(await reminderCount(server, bob, 'Later call')).toBe(1);
    expect(await reminderCount(server, ann, 'Later call')).toBe(0); // 10 minutes ahead: not yet
    expect(await reminderCount(server, ann, 'Dropped call')).toBe(0);
    await waitUntil(async () => reminderMails(server, outsider, 'Soon call') > 0);
    expect(reminderMails(server, outsider, 'Soon call')).toBe(1);
    expect(reminderMails(server, ann.email, 'Soon call')).toBe(1);
    const mail = server.mail.messages.find((m) => m.to.includes(outsider) && m.subject.startsWith('Reminder'));
    expect(mail?.text).toMatch(/starts in [45] minutes/);
  });
});

describe('meeting reminders with two server processes on one PostgreSQL', () => {
  let server: TestServer;
  let second: { built: BuiltApp; handle: DatabaseHandle } | undefined;
  let ann: SignedIn;
  let bob: SignedIn;

  async function startSecond(): Promise<{ built: BuiltApp; handle: DatabaseHandle }> {
    const handle = await openDatabase({ url: server.database.url ?? '' });
    const config = loadConfig({
      // No composer: a spare stage (Xvfb, PulseAudio, Chromium) per process is not what this tests.
      COMPOSER_WORKER: 'off',
      PORT: '0',
      DATA_DIR: server.built.context.config.dataDir,
      LOG_LEVEL: 'silent',
      SMTP_URL: server.built.context.config.smtpUrl ?? '',
      RATE_LIMIT_MULTIPLIER: '100',
      REMINDER_INTERVAL_SECONDS: '1',
    });
    const built = await buildApp(config, handle);
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    expect((built.app.server.address() as AddressInfo).port).toBeGreaterThan(0);
    return { built, handle };
  }

  async function stopSecond() {
    if (!second) return;
    await second.built.app.close();
    await second.handle.close();
    second = undefined;
  }

  beforeAll(async () => {
    server = await startTestServer('postgres', { REMINDER_INTERVAL_SECONDS: '1' });
    second = await startSecond();
    ann = await server.signUp({ username: 'Ann' });
    bob = await server.signUp({ username: 'Bob' });
  });
  afterAll(async () => {
    await stopSecond();
    await server.close();
  });

  it('sends each reminder exactly once, across processes and restarts', async () => {
    const db = server.database.handle.db;
    const outsider = uniqueEmail('outsider');
    const start = nowSeconds() + 4 * 60;
    const meeting = await addMeeting(server, ann, {
      name: 'Shared call',
      start_time: start,
      end_time: start + HOUR,
      invitees: `${bob.email},${outsider}`,
    });

    // Both processes run passes at the same moment, many times over, besides their own timers.
    const schedulers = [server.built.reminders, second?.built.reminders];
    const sent = await Promise.all(
      Array.from({ length: 6 }, () => schedulers.map((scheduler) => scheduler?.runOnce() ?? Promise.resolve(0))).flat(),
    );
    await waitUntil(async () => reminderMails(server, outsider, 'Shared call') > 0);
    await sleep(2500);
    const rows = await db.select({ value: count() }).from(sentReminders).where(eq(sentReminders.meetingId, meeting.id));
    expect(rows[0]?.value).toBe(3);
    expect(sent.reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(3);
    expect(await reminderCount(server, ann, 'Shared call')).toBe(1);
    expect(await reminderCount(server, bob, 'Shared call')).toBe(1);
    expect(reminderMails(server, ann.email, 'Shared call')).toBe(1);
    expect(reminderMails(server, bob.email, 'Shared call')).toBe(1);
    expect(reminderMails(server, outsider, 'Shared call')).toBe(1);

    // A restart of one process does not send again; a meeting created meanwhile is reminded once.
    await stopSecond();
    const next = nowSeconds() + 3 * 60;
    await addMeeting(server, bob, { name: 'After restart', start_time: next, end_time: next + HOUR });
    second = await startSecond();
    await waitUntil(async () => (await reminderCount(server, bob, 'After restart')) > 0);
    await sleep(2500);
    expect(await reminderCount(server, bob, 'After restart')).toBe(1);
    expect(await reminderCount(server, ann, 'Shared call')).toBe(1);
    expect(reminderMails(server, outsider, 'Shared call')).toBe(1);
  });
});
