import { eq, meetings } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JanusClient } from '../src/media/janus-client.js';
import { JanusBrowser } from './janus-browser.js';
import { useProxyServer } from './janus-proxy-fixture.js';
import { insertMeeting, RoomClient } from './room-helpers.js';
import { startTestServer, type TestServer } from './test-server.js';

describe('the /janus media proxy and the managed Janus', () => {
  const proxy = useProxyServer();

  // First in the file: no other test's meeting is ending (and destroying its room) meanwhile.
  it('places a room once: a later join, its room connection and its media connection ask Janus nothing', async () => {
    const media = proxy.server.built.context.media;
    const { meeting, hostGrant, hostClient } = await proxy.hostedMeeting();
    const hostMedia = await JanusBrowser.open(proxy.wsUrl(hostGrant));
    expect((await hostMedia.request({ janus: 'create' })).janus).toBe('success');

    const before = media.janusRequests;
    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Second' })).body.data!;
    const guestClient = new RoomClient(proxy.server.baseUrl, guest.grant);
    const state = await guestClient.next('room.state');
    const guestMedia = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    const session = await guestMedia.request({ janus: 'create' });
    expect(session.janus).toBe('success');
    expect(media.janusRequests - before).toBe(0);

    const [placed] = await proxy.server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(state.media?.room).toBe(placed!.janusRoomId);
    for (const connection of [hostMedia, guestMedia]) connection.socket.close();
    guestClient.close();
    hostClient.close();
  });

  it('admits only current grants and fills in room, pin and display itself', async () => {
    await expect(JanusBrowser.open(proxy.wsUrl('not-a-grant-at-all-not-a-grant'))).rejects.toThrow('HTTP 401');
    const meeting = await insertMeeting(proxy.server, { hostId: proxy.host.user.id, isPrivate: 1 });
    const waiting = (await proxy.join({ meetId: meeting.slug, display_name: 'In Lobby' })).body.data!;
    await expect(JanusBrowser.open(proxy.wsUrl(waiting.grant))).rejects.toThrow('HTTP 401');

    const me = (await proxy.join({ meetId: meeting.slug, token: proxy.host.token })).body.data!;
    const browser = await JanusBrowser.open(proxy.wsUrl(me.grant));
    const session = await browser.request({ janus: 'create' });
    expect(session.janus).toBe('success');
    const sessionId = (session.data as { id: number }).id;
    const refusedPlugin = await browser.request({
      janus: 'attach',
      session_id: sessionId,
      plugin: 'janus.plugin.streaming',
    });
    expect(refusedPlugin.janus).toBe('error');
    const handle = await browser.request({ janus: 'attach', session_id: sessionId, plugin: 'janus.plugin.videoroom' });
    const handleId = (handle.data as { id: number }).id;
    const message = (body: Record<string, unknown>) => ({
      janus: 'message',
      session_id: sessionId,
      handle_id: handleId,
      body,
    });

    const create = await browser.request(message({ request: 'create', room: 42, admin_key: 'guess' }));
    expect(create).toMatchObject({ janus: 'error', error: { code: 403, reason: 'not_allowed' } });
    for (const request of ['destroy', 'kick', 'moderate', 'rtp_forward', 'edit', 'enable_recording', 'list']) {
      expect((await browser.request(message({ request, room: 42 }))).janus).toBe('error');
    }
    const foreign = await browser.request({ janus: 'keepalive', session_id: 12345 });
    expect(foreign).toMatchObject({ janus: 'error', error: { reason: 'unknown_session' } });

    const joined = await browser.request(
      message({ request: 'join', ptype: 'publisher', room: 1, pin: 'wrong', display: 'camera' }),
      (m) => m.janus === 'event',
    );
    const [placed] = await proxy.server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect((joined.plugindata as { data: { videoroom: string; room: number } }).data).toMatchObject({
      videoroom: 'joined',
      room: placed?.janusRoomId,
    });
    const feeds = await proxy.roomFeeds(meeting.id);
    expect(feeds.map((f) => f.display)).toEqual([`${me.participant_id}:camera`]);

    // Without the API secret, nobody on the machine can talk to Janus directly.
    const direct = new JanusClient(proxy.server.built.context.media.managed!.url!);
    await expect(direct.connect()).rejects.toThrow();
    direct.close();
    browser.socket.close();
  });

  it('a participant who publishes again replaces the feed they left behind, never the new one', async () => {
    const meeting = await insertMeeting(proxy.server, { hostId: proxy.host.user.id });
    const me = (await proxy.join({ meetId: meeting.slug, token: proxy.host.token })).body.data!;
    const publish = async () => {
      const browser = await JanusBrowser.open(proxy.wsUrl(me.grant));
      const session = ((await browser.request({ janus: 'create' })).data as { id: number }).id;
      const handle = await browser.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' });
      const joined = await browser.request(
        {
          janus: 'message',
          session_id: session,
          handle_id: (handle.data as { id: number }).id,
          body: { request: 'join', ptype: 'publisher', display: 'camera' },
        },
        (m) => m.janus === 'event',
      );
      return { browser, feedId: (joined.plugindata as { data: { id: number } }).data.id };
    };
    // The first connection stays open, as a dropped one lingers in Janus until its session times out.
    const first = await publish();
    const second = await publish();
    await expect.poll(async () => (await proxy.roomFeeds(meeting.id)).map((feed) => feed.id)).toEqual([second.feedId]);
    expect(first.feedId).not.toBe(second.feedId);
    for (const connection of [first, second]) connection.browser.socket.close();
  });

  it('drops a removed participant’s media connection', async () => {
    const { meeting, hostClient } = await proxy.hostedMeeting();
    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Kicked Kim' })).body.data!;
    const browser = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    const closed = new Promise<number>((resolve) => browser.socket.once('close', (code) => resolve(code)));
    expect(await hostClient.send({ type: 'host.remove', participant_id: guest.participant_id })).toEqual({ ok: true });
    expect(await closed).toBe(4003);
    await expect(JanusBrowser.open(proxy.wsUrl(guest.grant))).rejects.toThrow('HTTP 401');
    hostClient.close();
  });

  it('keeps a participant’s session through a cut: a new connection claims it back, the old one’s goodbye leaves it be, nobody else may claim it', async () => {
    const { meeting, hostGrant, hostClient } = await proxy.hostedMeeting();
    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Roaming Rita' })).body.data!;
    const cut = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    const { session, handle, feedId } = await cut.publishCamera();
    // A network cut: the socket goes without a close frame, and stays gone past Janus' stock 20-s
    // reclaim_session_timeout (the managed one keeps a session for the reconnect grace and more).
    cut.socket.terminate();
    await new Promise((resolve) => setTimeout(resolve, 25_000));

    const back = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    expect(await back.request({ janus: 'claim', session_id: session })).toMatchObject({ janus: 'success' });
    const seen = await back.feedsSeenBy(session, handle);
    expect(seen.answer.janus).toBe('success');
    expect(seen.feeds).toContain(feedId);

    const other = await JanusBrowser.open(proxy.wsUrl(hostGrant));
    expect(await other.request({ janus: 'claim', session_id: session })).toMatchObject({
      janus: 'error',
      error: { reason: 'unknown_session' },
    });

    // Back again over yet another connection (the page's network changed once more) while the
    // previous one is still open; that one then closes with a goodbye, which ends its own sessions.
    const again = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    expect(await again.request({ janus: 'claim', session_id: session })).toMatchObject({ janus: 'success' });
    const backClosed = new Promise((resolve) => back.socket.once('close', resolve));
    back.socket.close(1000);
    await backClosed;
    // A destroy it sent would have reached Janus over its own connection by now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await again.feedsSeenBy(session, handle)).feeds).toContain(feedId);
    expect((await proxy.roomFeeds(meeting.id)).map((feed) => feed.id)).toContain(feedId);
    for (const connection of [other, again]) connection.socket.close();
    hostClient.close();
  }, 60_000);

  it('admits the connection of a grant join-room.php just answered from memory, and forgets it when the person is removed', async () => {
    const { meeting, hostClient } = await proxy.hostedMeeting();

    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Quick Quinn' })).body.data!;
    const selects = vi.spyOn(proxy.server.built.context.db, 'select');
    const browser = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    expect(selects).not.toHaveBeenCalled();
    selects.mockRestore();
    expect((await browser.request({ janus: 'create' })).janus).toBe('success');
    // Taken once: another connection with the grant is checked against the database, and still admitted.
    const again = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    for (const connection of [browser, again]) connection.socket.close();

    const removed = (await proxy.join({ meetId: meeting.slug, display_name: 'Removed Rae' })).body.data!;
    expect(await hostClient.send({ type: 'host.remove', participant_id: removed.participant_id })).toEqual({
      ok: true,
    });
    await expect(JanusBrowser.open(proxy.wsUrl(removed.grant))).rejects.toThrow('HTTP 401');
    hostClient.close();
  });

  it('restarts a Janus that died and re-creates the live rooms on it', async () => {
    const { meeting, hostClient } = await proxy.hostedMeeting();
    const managed = proxy.server.built.context.media.managed!;
    const before = managed.pid!;
    const url = managed.url!;
    process.kill(before, 'SIGKILL');
    await expect.poll(() => managed.pid !== undefined && managed.pid !== before, { timeout: 15_000 }).toBe(true);
    expect(managed.url).toBe(url);
    const [placed] = await proxy.server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    await expect
      .poll(
        async () => {
          const admin = new JanusClient(url, { apiSecret: managed.apiSecret });
          try {
            await admin.connect();
            return await admin.exists(placed!.janusRoomId!);
          } catch {
            return false;
          } finally {
            admin.close();
          }
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    hostClient.close();
  });

  it('caps the Janus sessions one grant can hold', async () => {
    const meeting = await insertMeeting(proxy.server, { hostId: proxy.host.user.id });
    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Greedy' })).body.data!;
    const first = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    const firstClosed = new Promise<number>((resolve) => first.socket.once('close', (code) => resolve(code)));
    expect((await first.request({ janus: 'create' })).janus).toBe('success');
    expect((await first.request({ janus: 'create' })).janus).toBe('success');
    expect(await first.request({ janus: 'create' })).toMatchObject({
      janus: 'error',
      error: { reason: 'too_many_sessions' },
    });

    const second = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    const third = await JanusBrowser.open(proxy.wsUrl(guest.grant));
    expect(await firstClosed).toBe(4009);
    expect((await third.request({ janus: 'create' })).janus).toBe('success');
    second.socket.close();
    third.socket.close();
  });
});

describe('without a Janus binary', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { JANUS_BINARY: '/nonexistent/janus' });
  });
  afterAll(() => server.close());

  it('still serves, and room joins answer a clear error', async () => {
    const host = await server.signUp();
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const answer = await server.post('join-room.php', { meetId: meeting.slug, token: host.token });
    expect(answer.httpStatus).toBe(503);
    expect(answer.body).toEqual({ status: 'error', message: expect.stringMatching(/video service is not available/) });
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});
