import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REALTIME_PROTOCOL_VERSION, USER_EVENT, UserEventSchema, type UserEvent } from '@meetcast/contracts';
import { eq, users } from '@meetcast/db';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';
import { freePort } from '../src/media/managed-janus.js';
import { addMeeting, nowSeconds, HOUR } from './meeting-helpers.js';
import { startRedis, stopRedis } from './own-redis.js';
import { insertMeeting, RoomClient, type JoinAnswer } from './room-helpers.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';
import { liveBroadcast, ViewerChatClient, type PostAnswer } from './viewer-chat-helpers.js';

const OUTAGE_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** A signed-in tab's connection to the default namespace, recording the per-user events. */
async function userSocket(baseUrl: string, token: string) {
  const socket = connect(baseUrl, { auth: { token, protocol: REALTIME_PROTOCOL_VERSION }, transports: ['websocket'] });
  const events: UserEvent[] = [];
  socket.on(USER_EVENT, (payload: unknown) => events.push(UserEventSchema.parse(payload)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

describe('Redis outage', () => {
  let server: TestServer;
  /** A second process on the same database and Redis: what reaches it from `server` went through Redis. */
  let other: BuiltApp;
  let otherUrl: string;
  let redis: ChildProcess;
  let port: number;
  const strays: unknown[] = [];
  const noteStray = (reason: unknown) => strays.push(reason);
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    process.on('unhandledRejection', noteStray);
    process.on('uncaughtException', noteStray);
    port = await freePort();
    redis = await startRedis(port);
    const shared = { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: `test-outage-${process.pid}-${Date.now()}` };
    server = await startTestServer('postgres', { ...shared, REMINDER_INTERVAL_SECONDS: '1' });
    other = await buildApp(
      loadConfig({
        ...shared,
        PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'meetcast-outage-')),
        LOG_LEVEL: 'silent',
        DATABASE_URL: server.database.url,
        COMPOSER_WORKER: 'off',
        COMPOSER_SPARES: '0',
        REMINDER_INTERVAL_SECONDS: '0',
        RATE_LIMIT_MULTIPLIER: '100',
      }),
    );
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    otherUrl = `http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const close of closers) close();
    await other?.app.close();
    await server?.close();
    await stopRedis(redis);
    process.off('unhandledRejection', noteStray);
    process.off('uncaughtException', noteStray);
  });

  async function redisBack() {
    redis = await startRedis(port);
    return Date.now();
  }

  it('answers limited calls 503 with Retry-After while Redis is away, and recovers when it returns', async () => {
    const account = await server.signUp();
    await stopRedis(redis);

    const started = Date.now();
    const login = await fetch(`${server.baseUrl}/api/login.php`, {
      method: 'POST',
      body: new URLSearchParams({ email: account.email, password: account.password, lng: 'fr' }),
    });
    expect(login.status).toBe(503);
    expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await login.json()) as { status: string; message: string };
    expect(body.status).toBe('error');
    expect(body.message).toMatch(/service/i);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(
      (await server.post('signup.php', { username: 'Xavier', email: 'xavier@example.com', password: 'long enough pw' }))
        .httpStatus,
    ).toBe(503);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);
    // Calls without a limit go on: the session is in the database.
    expect((await server.post('tokenverify.php', { token: account.token })).httpStatus).toBe(200);
    expect((await server.post('logout.php', { token: account.token })).httpStatus).toBe(200);
    // Away for 15 s in all, as a restart or failover of Redis would be: still 503, never 500.
    while (Date.now() - started < OUTAGE_MS) {
      const again = await server.post('login.php', { email: account.email, password: account.password });
      expect(again.httpStatus).toBe(503);
      await sleep(1000);
    }

    const back = await redisBack();
    let status = 0;
    while (Date.now() - back < 5000) {
      status = (await server.post('login.php', { email: account.email, password: account.password })).httpStatus;
      if (status === 200) break;
      await sleep(100);
    }
    expect(status).toBe(200);
    expect(Date.now() - back).toBeLessThan(2000);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    expect(strays).toEqual([]);
  }, 90_000);

  it('keeps the process and its realtime traffic alive while Redis is away, and carries it again within 2 s of its return', async () => {
    const host: SignedIn = await server.signUp({ username: 'Outage Host' });
    const db = server.database.handle.db;
    const room = (client: RoomClient) => {
      closers.push(() => client.close());
      return client;
    };
    const join = async (fields: Record<string, string>) =>
      (await server.post<JoinAnswer>('join-room.php', fields)).body.data!;

    // A room: the host and Eve on this process, Dee on the other one.
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hostJoin = await join({ meetId: meeting.slug, token: host.token });
    const hostRoom = room(new RoomClient(server.baseUrl, hostJoin.grant));
    await hostRoom.next('room.state');
    const eve = await join({ meetId: meeting.slug, display_name: 'Eve' });
    let eveRoom = room(new RoomClient(server.baseUrl, eve.grant));
    await eveRoom.next('room.state');
    const dee = await join({ meetId: meeting.slug, display_name: 'Dee' });
    const deeRoom = room(new RoomClient(otherUrl, dee.grant));
    await deeRoom.next('room.state');
    expect(await deeRoom.send({ type: 'chat.send', text: 'across processes' })).toEqual({ ok: true });
    await hostRoom.next('chat.message', (event) => event.message.text === 'across processes');

    // A reminder that falls due during the outage (reminders off until then), and the host's tab.
    await db.update(users).set({ reminderMinutes: 0 }).where(eq(users.id, host.user.id));
    const soon = nowSeconds() + 5 * 60;
    await addMeeting(server, host, { name: 'Outage call', start_time: soon, end_time: soon + HOUR });
    const tab = await userSocket(server.baseUrl, host.token);
    closers.push(() => tab.socket.close());

    // A running broadcast's viewer chat with a listener and a message to moderate.
    const broadcast = await liveBroadcast(server, host);
    const listener = new ViewerChatClient(server.baseUrl, { meetId: broadcast.slug });
    closers.push(() => listener.close());
    await listener.connected();
    const say = (text: string) =>
      server.post<PostAnswer>('post-viewer-chat.php', { meetId: broadcast.slug, token: host.token, text });
    const early = (await say('before the outage')).body.data!.data;

    await stopRedis(redis);
    const started = Date.now();

    // Chat between people on this process goes on; the process must not die of it a moment later.
    expect(await eveRoom.send({ type: 'chat.send', text: 'during the outage' })).toEqual({ ok: true });
    await hostRoom.next('chat.message', (event) => event.message.text === 'during the outage', 3000);
    // A reminder with no one doing anything, pushed to the host's tab.
    await db.update(users).set({ reminderMinutes: 10 }).where(eq(users.id, host.user.id));
    await waitUntil(
      () =>
        tab.events.some(
          (event) => event.type === 'notification.created' && event.notification.text.includes('Outage call'),
        ),
      8000,
      'reminder pushed during the outage',
    );
    // Viewer chat: posting is rate-limited, so it fails closed; moderation still reaches this process's viewers.
    expect((await say('while away')).httpStatus).toBe(503);
    expect(
      (await server.post('delete-viewer-chat-message.php', { meetId: broadcast.slug, token: host.token, id: early.id }))
        .httpStatus,
    ).toBe(200);
    expect((await listener.next('message.deleted', () => true, 3000)).id).toBe(early.id);
    // Someone whose connection dropped comes back with their grant: presence is this process's own.
    eveRoom.close();
    eveRoom = room(new RoomClient(server.baseUrl, eve.grant));
    const state = await eveRoom.next('room.state', () => true, 5000);
    expect(state.participants.map((participant) => participant.id)).toContain(hostJoin.participant_id);
    // Realtime traffic all along the outage, on both processes.
    let sent = 0;
    while (Date.now() - started < 8000) {
      expect(await eveRoom.send({ type: 'chat.send', text: `still here ${sent}` })).toEqual({ ok: true });
      expect(await deeRoom.send({ type: 'hand.set', raised: sent % 2 === 0 })).toEqual({ ok: true });
      sent += 1;
      await sleep(700); // within the room's chat budget
    }
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${otherUrl}/healthz`)).status).toBe(200);
    expect(strays).toEqual([]);

    // Redis returns: a chat from the other process reaches the host here again within 2 s.
    const back = await redisBack();
    let attempt = 0;
    await waitUntil(
      async () => {
        const text = `back ${attempt++}`;
        await deeRoom.send({ type: 'chat.send', text });
        return hostRoom
          .next('chat.message', (event) => event.message.text === text, 200)
          .then(
            () => true,
            () => false,
          );
      },
      2500,
      'chat across processes after Redis returned',
    );
    expect(Date.now() - back).toBeLessThan(2000);
    await waitUntil(async () => (await say('after the outage')).httpStatus === 200, 2000, 'viewer chat post');
    await listener.next('message.created', (event) => event.message.text === 'after the outage', 2000);
    expect(strays).toEqual([]);
  }, 90_000);

  it('starts while Redis is away, and serves limited calls once it comes', async () => {
    // A server's start (migrations, the composer's probe) took 30 to 60 s on two cores with a CPU hog beside it.
    const missingPort = await freePort();
    const late = await startTestServer('pglite', { REDIS_URL: `redis://127.0.0.1:${missingPort}` });
    let lateRedis: ChildProcess | undefined;
    try {
      expect((await fetch(`${late.baseUrl}/healthz`)).status).toBe(200);
      expect((await fetch(`${late.baseUrl}/readyz`)).status).toBe(503);
      const signUp = { username: 'Late', email: `late.${process.pid}@example.com`, password: 'long enough pw' };
      expect((await late.post('signup.php', signUp)).httpStatus).toBe(503);
      lateRedis = await startRedis(missingPort);
      const back = Date.now();
      await waitUntil(async () => (await fetch(`${late.baseUrl}/readyz`)).status === 200, 2000, 'ready');
      expect(Date.now() - back).toBeLessThan(2000);
      expect((await late.post('signup.php', signUp)).httpStatus).toBe(200);
    } finally {
      await late.close();
      if (lateRedis) await stopRedis(lateRedis);
    }
    expect(strays).toEqual([]);
  }, 150_000);
});
