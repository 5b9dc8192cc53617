import { REALTIME_PROTOCOL_VERSION, ROOM_PROTOCOL_VERSION, VIEWER_CHAT_PROTOCOL_VERSION } from '@meetcast/contracts';
import { eq, liveBroadcasts } from '@meetcast/db';
import fc from 'fast-check';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { issueViewerGrant } from '../src/streaming/viewers/viewer-keys.js';
import { JanusBrowser } from './janus-browser.js';
import { engineFrame, hostileValue, HUGE, janusFrame, sampleOf, socketEmit } from './realtime-fuzz-cases.js';
import {
  asText,
  emitAll,
  engineSocket,
  handshake,
  health,
  inParallel,
  janusConnection,
  sendAll,
  upgradeStatus,
  waitFor,
} from './realtime-fuzz-drivers.js';
import { insertMeeting, RoomClient, type JoinAnswer } from './room-helpers.js';
import { startWithPeople, type SignedIn, type TestServer } from './test-server.js';
import { ViewerChatClient } from './viewer-chat-helpers.js';

/** Messages per target: a few hundred each, the whole file well under a minute. */
const PER_TARGET = 300;

/** A frame over the listener's limit halfway: it closes its connection, the rest go on a new one. */
const withHugeFrame = <T>(frames: T[], huge: T) => [
  ...frames.slice(0, frames.length / 2),
  huge,
  ...frames.slice(frames.length / 2),
];

/**
 * A bounded, seeded fuzz of everything that is not plain HTTP: the Socket.IO namespaces (`/`,
 * `/room`, `/viewer-chat`, unknown ones, raw Engine.IO frames) and the `/janus` and `/janus-watch`
 * upgrades to the real Janus. Wrong shapes, huge frames, unknown events and binary frames must
 * leave the server up, with no unhandled rejection or uncaught exception in this process (which
 * hosts the server), no error logged, every socket released, and a well-formed client served after.
 */
// Each case takes 1–30 s alone; the margin is for a machine busy with other suites.
describe('realtime fuzz', { timeout: 90_000 }, () => {
  let server: TestServer;
  let host: SignedIn;
  let meetId: string;
  let hostClient: RoomClient;
  let viewerGrant: string;
  let baselineConnections: number;
  let errorLog: MockInstance;
  const faults: unknown[] = [];
  const onFault = (error: unknown) => faults.push(error);

  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.built.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  const wsBase = () => server.baseUrl.replace('http', 'ws');
  const guestGrant = async (name: string) => {
    const joined = await server.post<JoinAnswer>('join-room.php', { meetId, display_name: name });
    if (!joined.body.data) throw new Error(`join failed: ${joined.body.message}`);
    return joined.body.data.grant;
  };
  /** What the server logged as its own failure since the fuzz began: a crash it caught. */
  const loggedFailures = () => errorLog.mock.calls.map((call) => JSON.stringify(call).slice(0, 400));

  beforeAll(async () => {
    process.on('unhandledRejection', onFault);
    process.on('uncaughtException', onFault);
    [server, host] = await startWithPeople('pglite', 'Fuzz Host');
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    meetId = meeting.slug;
    const hostGrant = (await server.post<JoinAnswer>('join-room.php', { meetId, token: host.token })).body.data!.grant;
    hostClient = new RoomClient(server.baseUrl, hostGrant);
    await hostClient.next('room.state');
    const started = await server.post('start-broadcast.php', { token: host.token, meetId, record: 1 });
    expect(started.httpStatus).toBe(200);
    const [broadcast] = await server.built.context.db
      .select()
      .from(liveBroadcasts)
      .where(eq(liveBroadcasts.meetingId, meeting.id));
    viewerGrant = issueViewerGrant(server.built.context.config, broadcast!.id).grant;
    errorLog = vi.spyOn(server.built.context.log, 'error');
    baselineConnections = await connections();
  });
  // Each case answers for what was logged while it ran.
  beforeEach(() => void errorLog?.mockClear());
  afterAll(async () => {
    hostClient?.close();
    await server?.close();
    process.off('unhandledRejection', onFault);
    process.off('uncaughtException', onFault);
  });

  it('survives hostile handshakes on every namespace, the unknown ones too', async () => {
    const auths = sampleOf(
      fc.oneof(
        hostileValue,
        fc.record({ protocol: hostileValue, grant: hostileValue, meetId: hostileValue, token: hostileValue }),
        fc.constantFrom(
          { protocol: ROOM_PROTOCOL_VERSION, grant: 'g'.repeat(40) },
          { protocol: VIEWER_CHAT_PROTOCOL_VERSION, meetId: 'no-such-meeting' },
          { protocol: VIEWER_CHAT_PROTOCOL_VERSION, meetId: 'x'.repeat(5000), viewer_token: 'v'.repeat(400) },
          { protocol: REALTIME_PROTOCOL_VERSION, token: 't'.repeat(600) },
          { protocol: 1e308, grant: null },
        ),
      ),
      PER_TARGET / 5,
      1,
    );
    const outcomes = new Map<string, number>();
    const attempts = auths.flatMap((auth) =>
      ['/', '/room', '/viewer-chat', '/no-such-namespace'].map((path) => ({ auth, path })),
    );
    await inParallel(attempts, 8, async ({ auth, path }) => {
      const outcome = `${path}: ${await handshake(`${server.baseUrl}${path}`, auth)}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    });
    // Refused with a reason of the contract each time: never admitted, never a server fault.
    for (const outcome of outcomes.keys()) {
      expect(outcome).toMatch(
        /^\/[a-z-]*: (invalid_message|protocol_mismatch|unauthorized|not_found|Invalid namespace)$/,
      );
    }
    expect(faults).toEqual([]);
    expect(loggedFailures()).toEqual([]);
  });

  it('refuses a malformed /viewer-chat handshake with its reason, logged as a warning without a stack', async () => {
    const warnLog = vi.spyOn(server.built.context.log, 'warn');
    try {
      warnLog.mockClear();
      expect(
        await handshake(`${server.baseUrl}/viewer-chat`, { protocol: VIEWER_CHAT_PROTOCOL_VERSION, meetId: 5 }),
      ).toBe('invalid_message');
      expect(await handshake(`${server.baseUrl}/viewer-chat`, { protocol: 99, meetId })).toBe('protocol_mismatch');
      expect(loggedFailures()).toEqual([]);
      const warnings = warnLog.mock.calls.filter((call) => JSON.stringify(call).includes('viewer chat'));
      expect(warnings).toHaveLength(2);
      for (const warning of warnings) expect(JSON.stringify(warning)).not.toMatch(/"err"|stack/);
    } finally {
      warnLog.mockRestore();
    }
  });

  it('survives wrong shapes, unknown events, binary and huge frames on /room and /viewer-chat', async () => {
    const grant = await guestGrant('Fuzz Guest');
    const openRoom = async () => {
      const client = new RoomClient(server.baseUrl, grant);
      await client.connected();
      return client.socket;
    };
    // Fewer than elsewhere: a third of them end their connection, and each new one joins the room afresh.
    const room = await emitAll(openRoom, sampleOf(socketEmit, (PER_TARGET * 2) / 3, 2));
    expect(room.malformedAcks).toEqual([]);
    expect(room.acks).toBeGreaterThan(0);
    // The huge frames closed their connection instead of being read.
    expect(room.reopened).toBeGreaterThan(0);

    const openChat = async () => {
      const client = new ViewerChatClient(server.baseUrl, { meetId });
      await client.connected();
      return client.socket;
    };
    const chat = await emitAll(openChat, sampleOf(socketEmit, PER_TARGET / 3, 3));
    expect(chat.reopened).toBeGreaterThan(0);
    expect(faults).toEqual([]);
    expect(loggedFailures()).toEqual([]);
  });

  it('survives raw Engine.IO frames the client libraries never send', async () => {
    const frames = withHugeFrame(sampleOf(engineFrame, PER_TARGET, 4), `42/room,["${'x'.repeat(HUGE.socketIo)}"]`);
    const { reopened } = await sendAll(() => engineSocket(server.baseUrl), frames);
    expect(reopened).toBeGreaterThan(0);
    expect(faults).toEqual([]);
    expect(loggedFailures()).toEqual([]);
  });

  it('survives hostile upgrades and frames on /janus', async () => {
    const grant = await guestGrant('Fuzz Media');
    const queries = sampleOf(fc.tuple(hostileValue, hostileValue, fc.boolean()), 40, 5).map(
      ([first, second, prepared]) =>
        prepared
          ? `/janus?meeting=${encodeURIComponent(asText(first))}&key=${encodeURIComponent(asText(second))}`
          : `/janus?grant=${encodeURIComponent(asText(first))}`,
    );
    for (const query of [
      ...queries,
      '/janus',
      `/janus?meeting=${meetId}&key=${'k'.repeat(30)}`,
      '/janus?grant=&grant=x',
    ]) {
      expect([101, 401, 404, 429, 400]).toContain(await upgradeStatus(server.baseUrl, query, 'janus-protocol'));
    }
    const frames = withHugeFrame(sampleOf(janusFrame, PER_TARGET, 6), 'x'.repeat(HUGE.janus));
    const open = () =>
      janusConnection(`${wsBase()}/janus?grant=${encodeURIComponent(grant)}`, 'janus.plugin.videoroom');
    const { reopened } = await sendAll(open, frames);
    expect(reopened).toBeGreaterThan(0);
    expect(faults).toEqual([]);
    expect(loggedFailures()).toEqual([]);
  });

  it('survives hostile upgrades and frames on /janus-watch', async () => {
    const grants = sampleOf(hostileValue, 30, 7).map(asText);
    for (const grant of [...grants, `${viewerGrant}x`, viewerGrant.replace(/^\d+/, '999999')]) {
      const query = `/janus-watch?grant=${encodeURIComponent(grant)}&start=1`;
      expect([401, 400]).toContain(await upgradeStatus(server.baseUrl, query, 'janus-protocol'));
    }
    const frames = withHugeFrame(sampleOf(janusFrame, PER_TARGET, 8), 'x'.repeat(HUGE.janusWatch));
    const open = () =>
      janusConnection(`${wsBase()}/janus-watch?grant=${encodeURIComponent(viewerGrant)}`, 'janus.plugin.streaming');
    const { reopened } = await sendAll(open, frames);
    expect(reopened).toBeGreaterThan(0);
    expect(faults).toEqual([]);
    expect(loggedFailures()).toEqual([]);
  });

  it('is up afterwards: serves well-formed clients and has released every fuzzed socket', async () => {
    expect(await health(server.baseUrl)).toBe(200);
    const grant = await guestGrant('After The Fuzz');
    const guest = new RoomClient(server.baseUrl, grant);
    await guest.next('room.state');
    expect(await guest.send({ type: 'chat.send', text: 'still here' })).toEqual({ ok: true });
    await hostClient.next('chat.message', (event) => event.message.text === 'still here');
    const media = await JanusBrowser.open(`${wsBase()}/janus?grant=${encodeURIComponent(grant)}`);
    expect((await media.request({ janus: 'create' })).janus).toBe('success');
    const viewer = await JanusBrowser.open(`${wsBase()}/janus-watch?grant=${encodeURIComponent(viewerGrant)}`);
    expect((await viewer.request({ janus: 'create' })).janus).toBe('success');
    const listener = new ViewerChatClient(server.baseUrl, { meetId });
    await listener.connected();
    const notifications = connect(server.baseUrl, {
      auth: { protocol: REALTIME_PROTOCOL_VERSION, token: host.token },
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) =>
      notifications.once('connect', () => resolve()).once('connect_error', reject),
    );
    for (const closing of [guest, listener]) closing.close();
    notifications.close();
    media.socket.close();
    viewer.socket.close();
    await waitFor(async () => (await connections()) <= baselineConnections, 'the fuzzed sockets to close');
    expect(faults).toEqual([]);
    expect(loggedFailures()).toEqual([]);
  });
});
