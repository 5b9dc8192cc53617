import { eq, meetings } from '@meetcast/db';
import { MediaStreamTrack, useVP8 } from 'werift';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LightJanusSocket, loopbackPeer } from './light-janus-socket.js';
import { JanusClient } from '../src/media/janus-client.js';
import { subscriberJoinFor } from '../src/media/janus-filter.js';
import { JanusBrowser } from './janus-browser.js';
import { insertMeeting, RoomClient, type JoinAnswer } from './room-helpers.js';
import { startTestServer, type SignedIn, type TestServer } from './test-server.js';

describe('the /janus media proxy and the managed Janus', () => {
  let server: TestServer;
  let host: SignedIn;
  const wsUrl = (grant: string) => `${server.baseUrl.replace('http', 'ws')}/janus?grant=${encodeURIComponent(grant)}`;
  const join = (fields: Record<string, string | number | undefined>, headers?: Record<string, string>) =>
    server.post<JoinAnswer>('join-room.php', fields, headers);

  /** A meeting whose host is in the room (so its Janus room is placed), and the host's room connection. */
  const hostedMeeting = async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const hostGrant = (await join({ meetId: meeting.slug, token: host.token })).body.data!.grant;
    const hostClient = new RoomClient(server.baseUrl, hostGrant);
    await hostClient.next('room.state');
    return { meeting, hostGrant, hostClient };
  };

  beforeAll(async () => {
    server = await startTestServer('pglite');
    host = await server.signUp({ username: 'Proxy Host' });
  });
  afterAll(() => server.close());

  // First in the file: no other test's meeting is ending (and destroying its room) meanwhile.
  it('places a room once: a later join, its room connection and its media connection ask Janus nothing', async () => {
    const media = server.built.context.media;
    const { meeting, hostGrant, hostClient } = await hostedMeeting();
    const hostMedia = await JanusBrowser.open(wsUrl(hostGrant));
    expect((await hostMedia.request({ janus: 'create' })).janus).toBe('success');

    const before = media.janusRequests;
    const guest = (await join({ meetId: meeting.slug, display_name: 'Second' })).body.data!;
    const guestClient = new RoomClient(server.baseUrl, guest.grant);
    const state = await guestClient.next('room.state');
    const guestMedia = await JanusBrowser.open(wsUrl(guest.grant));
    const session = await guestMedia.request({ janus: 'create' });
    expect(session.janus).toBe('success');
    expect(media.janusRequests - before).toBe(0);

    const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect(state.media?.room).toBe(placed!.janusRoomId);
    for (const connection of [hostMedia, guestMedia]) connection.socket.close();
    guestClient.close();
    hostClient.close();
  });

  it('admits only current grants and fills in room, pin and display itself', async () => {
    await expect(JanusBrowser.open(wsUrl('not-a-grant-at-all-not-a-grant'))).rejects.toThrow('HTTP 401');
    const meeting = await insertMeeting(server, { hostId: host.user.id, isPrivate: 1 });
    const waiting = (await join({ meetId: meeting.slug, display_name: 'In Lobby' })).body.data!;
    await expect(JanusBrowser.open(wsUrl(waiting.grant))).rejects.toThrow('HTTP 401');

    const me = (await join({ meetId: meeting.slug, token: host.token })).body.data!;
    const browser = await JanusBrowser.open(wsUrl(me.grant));
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
    const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    expect((joined.plugindata as { data: { videoroom: string; room: number } }).data).toMatchObject({
      videoroom: 'joined',
      room: placed?.janusRoomId,
    });
    const managed = server.built.context.media.managed!;
    const admin = new JanusClient(managed.url!, { apiSecret: managed.apiSecret });
    await admin.connect();
    const feeds = await admin.listParticipants(placed!.janusRoomId!);
    expect(feeds.map((f) => f.display)).toEqual([`${me.participant_id}:camera`]);

    // Without the API secret, nobody on the machine can talk to Janus directly.
    const direct = new JanusClient(managed.url!);
    await expect(direct.connect()).rejects.toThrow();
    direct.close();
    admin.close();
    browser.socket.close();
  });

  it('a participant who publishes again replaces the feed they left behind, never the new one', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const me = (await join({ meetId: meeting.slug, token: host.token })).body.data!;
    const publish = async () => {
      const browser = await JanusBrowser.open(wsUrl(me.grant));
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
    const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    const managed = server.built.context.media.managed!;
    const admin = new JanusClient(managed.url!, { apiSecret: managed.apiSecret });
    await admin.connect();
    await expect
      .poll(async () => (await admin.listParticipants(placed!.janusRoomId!)).map((feed) => feed.id))
      .toEqual([second.feedId]);
    expect(first.feedId).not.toBe(second.feedId);
    admin.close();
    for (const connection of [first, second]) connection.browser.socket.close();
  });

  it('drops a removed participant’s media connection', async () => {
    const { meeting, hostClient } = await hostedMeeting();
    const guest = (await join({ meetId: meeting.slug, display_name: 'Kicked Kim' })).body.data!;
    const browser = await JanusBrowser.open(wsUrl(guest.grant));
    const closed = new Promise<number>((resolve) => browser.socket.once('close', (code) => resolve(code)));
    expect(await hostClient.send({ type: 'host.remove', participant_id: guest.participant_id })).toEqual({ ok: true });
    expect(await closed).toBe(4003);
    await expect(JanusBrowser.open(wsUrl(guest.grant))).rejects.toThrow('HTTP 401');
    hostClient.close();
  });

  it('admits the connection of a grant join-room.php just answered from memory, and forgets it when the person is removed', async () => {
    const { meeting, hostClient } = await hostedMeeting();

    const guest = (await join({ meetId: meeting.slug, display_name: 'Quick Quinn' })).body.data!;
    const selects = vi.spyOn(server.built.context.db, 'select');
    const browser = await JanusBrowser.open(wsUrl(guest.grant));
    expect(selects).not.toHaveBeenCalled();
    selects.mockRestore();
    expect((await browser.request({ janus: 'create' })).janus).toBe('success');
    // Taken once: another connection with the grant is checked against the database, and still admitted.
    const again = await JanusBrowser.open(wsUrl(guest.grant));
    for (const connection of [browser, again]) connection.socket.close();

    const removed = (await join({ meetId: meeting.slug, display_name: 'Removed Rae' })).body.data!;
    expect(await hostClient.send({ type: 'host.remove', participant_id: removed.participant_id })).toEqual({
      ok: true,
    });
    await expect(JanusBrowser.open(wsUrl(removed.grant))).rejects.toThrow('HTTP 401');
    hostClient.close();
  });

  it('restarts a Janus that died and re-creates the live rooms on it', async () => {
    const { meeting, hostClient } = await hostedMeeting();
    const managed = server.built.context.media.managed!;
    const before = managed.pid!;
    const url = managed.url!;
    process.kill(before, 'SIGKILL');
    await expect.poll(() => managed.pid !== undefined && managed.pid !== before, { timeout: 15_000 }).toBe(true);
    expect(managed.url).toBe(url);
    const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
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
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    const guest = (await join({ meetId: meeting.slug, display_name: 'Greedy' })).body.data!;
    const first = await JanusBrowser.open(wsUrl(guest.grant));
    const firstClosed = new Promise<number>((resolve) => first.socket.once('close', (code) => resolve(code)));
    expect((await first.request({ janus: 'create' })).janus).toBe('success');
    expect((await first.request({ janus: 'create' })).janus).toBe('success');
    expect(await first.request({ janus: 'create' })).toMatchObject({
      janus: 'error',
      error: { reason: 'too_many_sessions' },
    });

    const second = await JanusBrowser.open(wsUrl(guest.grant));
    const third = await JanusBrowser.open(wsUrl(guest.grant));
    expect(await firstClosed).toBe(4009);
    expect((await third.request({ janus: 'create' })).janus).toBe('success');
    second.socket.close();
    third.socket.close();
  });

  it('lets a pre-join screen prepare a session and handles, and admits it by the grant its publisher join carries', async () => {
    const prepareUrl = (meetId: string) => `${server.baseUrl.replace('http', 'ws')}/janus?meeting=${meetId}`;
    const meeting = await insertMeeting(server, { hostId: host.user.id });
    // Nothing is prepared for a meeting nobody has opened yet (its room is not placed).
    await expect(JanusBrowser.open(prepareUrl(meeting.slug))).rejects.toThrow('HTTP 404');
    await expect(JanusBrowser.open(prepareUrl('no-such-meeting'))).rejects.toThrow('HTTP 404');
    const hostClient = new RoomClient(
      server.baseUrl,
      (await join({ meetId: meeting.slug, token: host.token })).body.data!.grant,
    );
    await hostClient.next('room.state');

    const browser = await JanusBrowser.open(prepareUrl(meeting.slug));
    const session = ((await browser.request({ janus: 'create' })).data as { id: number }).id;
    const handle = await browser.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' });
    expect(handle.janus).toBe('success');
    const message = (body: Record<string, unknown>) => ({
      janus: 'message',
      session_id: session,
      handle_id: (handle.data as { id: number }).id,
      body,
    });
    // Before a grant: nothing reaches the room.
    for (const body of [
      { request: 'listparticipants' },
      { request: 'join', ptype: 'subscriber', streams: [{ feed: 1 }] },
      { request: 'join', ptype: 'publisher', display: 'camera' },
    ]) {
      expect(await browser.request(message(body))).toMatchObject({ janus: 'error', error: { reason: 'not_admitted' } });
    }
    const otherMeeting = await insertMeeting(server, { hostId: host.user.id });
    const foreignGrant = (await join({ meetId: otherMeeting.slug, display_name: 'Elsewhere' })).body.data!.grant;
    for (const grant of [foreignGrant, 'not-a-grant-at-all-not-a-grant']) {
      expect(
        await browser.request(message({ request: 'join', ptype: 'publisher', display: 'camera', grant })),
      ).toMatchObject({ janus: 'error', error: { reason: 'not_admitted' } });
    }

    const guest = (await join({ meetId: meeting.slug, display_name: 'Prepared' })).body.data!;
    const joined = await browser.request(
      message({ request: 'join', ptype: 'publisher', display: 'camera', grant: guest.grant }),
      (m) => m.janus === 'event',
    );
    expect((joined.plugindata as { data: { videoroom: string } }).data.videoroom).toBe('joined');
    const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    const managed = server.built.context.media.managed!;
    const admin = new JanusClient(managed.url!, { apiSecret: managed.apiSecret });
    await admin.connect();
    const feeds = await admin.listParticipants(placed!.janusRoomId!);
    expect(feeds.map((f) => f.display)).toContain(`${guest.participant_id}:camera`);
    admin.close();
    // Admitted, the connection counts as the grant's: two newer ones replace it.
    const closed = new Promise<number>((resolve) => browser.socket.once('close', (code) => resolve(code)));
    const newer = [await JanusBrowser.open(wsUrl(guest.grant)), await JanusBrowser.open(wsUrl(guest.grant))];
    expect(await closed).toBe(4009);
    for (const connection of newer) connection.socket.close();
    hostClient.close();
  });

  it('admits a pre-join connection when the join-room.php call names its key, and sends the join the click parked there', async () => {
    const { meeting, hostClient } = await hostedMeeting();
    const key = 'k'.repeat(20) + Date.now().toString(36);
    const browser = await JanusBrowser.open(
      `${server.baseUrl.replace('http', 'ws')}/janus?meeting=${meeting.slug}&key=${key}`,
    );
    const session = ((await browser.request({ janus: 'create' })).data as { id: number }).id;
    const handle = await browser.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' });
    const handleId = (handle.data as { id: number }).id;
    const publisherJoin = (transaction: string, grant?: string) =>
      JSON.stringify({
        janus: 'message',
        session_id: session,
        handle_id: handleId,
        transaction,
        body: { request: 'join', ptype: 'publisher', display: 'camera', ...(grant && { grant }) },
      });
    const answerTo = async (transaction: string, janus: string) => {
      for (let waited = 0; waited < 5000; waited += 20) {
        const found = browser.messages.find((m) => m.transaction === transaction && m.janus === janus);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${janus} for ${transaction}`);
    };

    // The click's join waits, unanswered, for the join-room.php call that names the key.
    browser.socket.send(publisherJoin('early'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(browser.messages.filter((m) => m.transaction === 'early')).toEqual([]);
    const guest = (await join({ meetId: meeting.slug, display_name: 'Named' }, { 'x-meetcast-join-key': key })).body
      .data!;
    const joined = await answerTo('early', 'event');
    expect((joined.plugindata as { data: { videoroom: string } }).data.videoroom).toBe('joined');
    // The page's own join with the grant, on the same handle, is acknowledged and not sent twice.
    browser.socket.send(publisherJoin('again', guest.grant));
    await answerTo('again', 'ack');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(browser.messages.filter((m) => m.transaction === 'again').map((m) => m.janus)).toEqual(['ack']);

    const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
    const managed = server.built.context.media.managed!;
    const admin = new JanusClient(managed.url!, { apiSecret: managed.apiSecret });
    await admin.connect();
    const feeds = await admin.listParticipants(placed!.janusRoomId!);
    expect(feeds.filter((f) => f.display === `${guest.participant_id}:camera`)).toHaveLength(1);
    admin.close();
    browser.socket.close();
    hostClient.close();
  });

  it('subscribes the handle a publisher join names to the others’ feeds as soon as Janus answers the join', async () => {
    const { meeting, hostGrant, hostClient } = await hostedMeeting();
    // The host publishes for real (werift, in Node): Janus lists only feeds whose media is up.
    const peer = loopbackPeer({ video: [useVP8()] });
    peer.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
    const hostMedia = await LightJanusSocket.open(wsUrl(hostGrant), peer, 'janus.plugin.videoroom');
    const hostJoin = await hostMedia.message({ request: 'join', ptype: 'publisher', display: 'camera' });
    const hostFeed = hostJoin.plugindata!.data.id as number;
    await peer.setLocalDescription(await peer.createOffer());
    const configured = await hostMedia.message(
      { request: 'configure', video: true },
      { type: 'offer', sdp: peer.localDescription!.sdp },
    );
    await peer.setRemoteDescription(configured.jsep!);

    const guest = (await join({ meetId: meeting.slug, display_name: 'Watcher' })).body.data!;
    const browser = await JanusBrowser.open(wsUrl(guest.grant));
    const session = ((await browser.request({ janus: 'create' })).data as { id: number }).id;
    const attach = async () =>
      (
        (await browser.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' })).data as {
          id: number;
        }
      ).id;
    const [publisher, subscriber] = [await attach(), await attach()];
    const joinNaming = async (subscriberHandle: number) => {
      const joined = await browser.request(
        {
          janus: 'message',
          session_id: session,
          handle_id: publisher,
          body: { request: 'join', ptype: 'publisher', display: 'camera', subscriber_handle: subscriberHandle },
        },
        (m) => m.janus === 'event',
      );
      return (joined.plugindata as { data: { publishers?: { id: number }[] } }).data.publishers ?? [];
    };
    await vi.waitFor(async () => expect(peer.connectionState).toBe('connected'), { timeout: 10_000 });
    // Janus lists the host's feed once its media is up: the guest joins then.
    await vi.waitFor(
      async () => {
        const admin = new JanusClient(server.built.context.media.managed!.url!, {
          apiSecret: server.built.context.media.managed!.apiSecret,
        });
        await admin.connect();
        const [placed] = await server.built.context.db.select().from(meetings).where(eq(meetings.id, meeting.id));
        const feeds = await admin.listParticipants(placed!.janusRoomId!);
        admin.close();
        expect(feeds.find((feed) => feed.id === hostFeed)?.publisher).toBe(true);
      },
      { timeout: 10_000 },
    );
    expect((await joinNaming(subscriber)).map((feed) => feed.id)).toEqual([hostFeed]);

    // The page asked nothing of its subscriber handle, and Janus offers it the host's feed.
    await vi.waitFor(() => {
      const offer = browser.messages.find((m) => m.sender === subscriber && m.jsep);
      expect((offer?.jsep as { type: string } | undefined)?.type).toBe('offer');
      const streams = (offer!.plugindata as { data: { streams: { feed_id?: number }[] } }).data.streams;
      expect(streams.map((stream) => stream.feed_id).filter(Boolean)).toEqual([hostFeed]);
    });
    hostMedia.close();
    await peer.close();
    browser.socket.close();
    hostClient.close();
  });

  it('asks for the others’ feeds only, and nothing when nobody else publishes', () => {
    const join = { sessionId: 1, handleId: 2, transaction: 'abc' };
    const publishers = [
      { id: 10, display: 'me:camera' },
      { id: 11, display: 'other:camera' },
      { id: 12, display: 'other:screen' },
      { id: 13, display: 'not ours' },
    ];
    const text = subscriberJoinFor(join, publishers, 'me');
    expect(JSON.parse(text!)).toMatchObject({
      janus: 'message',
      session_id: 1,
      handle_id: 2,
      body: { request: 'join', ptype: 'subscriber', streams: [{ feed: 11 }, { feed: 12 }], use_msid: true },
    });
    expect(subscriberJoinFor(join, [{ id: 10, display: 'me:camera' }], 'me')).toBeUndefined();
    expect(subscriberJoinFor(join, 'garbage', 'me')).toBeUndefined();
  });

  it('bounds the pre-join connections one address may hold', async () => {
    const { meeting, hostClient } = await hostedMeeting();
    const url = `${server.baseUrl.replace('http', 'ws')}/janus?meeting=${meeting.slug}`;
    const open: JanusBrowser[] = [];
    for (let i = 0; i < 8; i += 1) open.push(await JanusBrowser.open(url));
    await expect(JanusBrowser.open(url)).rejects.toThrow('HTTP 429');
    for (const connection of open) connection.socket.close();
    hostClient.close();
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
