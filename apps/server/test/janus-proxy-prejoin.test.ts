import { MediaStreamTrack, useVP8 } from 'werift';
import { describe, expect, it, vi } from 'vitest';
import { VideoRoomJoinedSchema } from '@meetcast/contracts';
import { subscriberJoinFor } from '../src/media/janus-filter.js';
import { JanusBrowser } from './janus-browser.js';
import { useProxyServer } from './janus-proxy-fixture.js';
import { LightJanusSocket, loopbackPeer } from '@meetcast/testkit/light-janus-socket';
import { insertMeeting, RoomClient } from './room-helpers.js';

/** The connection a pre-join screen prepares (ADR 016): admitted by a grant or by the join's key. */
describe('the /janus proxy before the click', () => {
  const proxy = useProxyServer();

  /** A pre-join connection named by a fresh key, with a session and a VideoRoom handle, as the page opens it. */
  const openKeyed = async (meetId: string) => {
    const key = `key-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`.padEnd(24, 'k');
    const browser = await JanusBrowser.open(
      `${proxy.server.baseUrl.replace('http', 'ws')}/janus?meeting=${meetId}&key=${key}`,
    );
    const session = ((await browser.request({ janus: 'create' })).data as { id: number }).id;
    const handle = await browser.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' });
    return { key, browser, session, handleId: (handle.data as { id: number }).id };
  };

  it('lets a pre-join screen prepare a session and handles, and admits it by the grant its publisher join carries', async () => {
    const prepareUrl = (meetId: string) => `${proxy.server.baseUrl.replace('http', 'ws')}/janus?meeting=${meetId}`;
    const meeting = await insertMeeting(proxy.server, { hostId: proxy.host.user.id });
    // Nothing is prepared for a meeting nobody has opened yet (its room is not placed).
    await expect(JanusBrowser.open(prepareUrl(meeting.slug))).rejects.toThrow('HTTP 404');
    await expect(JanusBrowser.open(prepareUrl('no-such-meeting'))).rejects.toThrow('HTTP 404');
    const hostClient = new RoomClient(
      proxy.server.baseUrl,
      (await proxy.join({ meetId: meeting.slug, token: proxy.host.token })).body.data!.grant,
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
    const otherMeeting = await insertMeeting(proxy.server, { hostId: proxy.host.user.id });
    const foreignGrant = (await proxy.join({ meetId: otherMeeting.slug, display_name: 'Elsewhere' })).body.data!.grant;
    for (const grant of [foreignGrant, 'not-a-grant-at-all-not-a-grant']) {
      expect(
        await browser.request(message({ request: 'join', ptype: 'publisher', display: 'camera', grant })),
      ).toMatchObject({ janus: 'error', error: { reason: 'not_admitted' } });
    }

    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Prepared' })).body.data!;
    const joined = await browser.request(
      message({ request: 'join', ptype: 'publisher', display: 'camera', grant: guest.grant }),
      (m) => m.janus === 'event',
    );
    expect((joined.plugindata as { data: { videoroom: string } }).data.videoroom).toBe('joined');
    const feeds = await proxy.roomFeeds(meeting.id);
    expect(feeds.map((f) => f.display)).toContain(`${guest.participant_id}:camera`);
    // Admitted, the connection counts as the grant's: two newer ones replace it.
    const closed = new Promise<number>((resolve) => browser.socket.once('close', (code) => resolve(code)));
    const newer = [
      await JanusBrowser.open(proxy.wsUrl(guest.grant)),
      await JanusBrowser.open(proxy.wsUrl(guest.grant)),
    ];
    expect(await closed).toBe(4009);
    for (const connection of newer) connection.socket.close();
    hostClient.close();
  });

  it('admits a pre-join connection when the join-room.php call names its key, and sends the join the click parked there', async () => {
    const { meeting, hostClient } = await proxy.hostedMeeting();
    const { key, browser, session, handleId } = await openKeyed(meeting.slug);
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
    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Named' }, { 'x-meetcast-join-key': key }))
      .body.data!;
    const joined = await answerTo('early', 'event');
    expect((joined.plugindata as { data: { videoroom: string } }).data.videoroom).toBe('joined');
    // The page's own join with the grant, on the same handle, is acknowledged and not sent twice.
    browser.socket.send(publisherJoin('again', guest.grant));
    await answerTo('again', 'ack');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(browser.messages.filter((m) => m.transaction === 'again').map((m) => m.janus)).toEqual(['ack']);

    const feeds = await proxy.roomFeeds(meeting.id);
    expect(feeds.filter((f) => f.display === `${guest.participant_id}:camera`)).toHaveLength(1);
    browser.socket.close();
    hostClient.close();
  });

  it('holds the answer of a join-room.php call that named its key until the click’s join, sent after it, is answered', async () => {
    const { meeting, hostClient } = await proxy.hostedMeeting();
    const { key, browser, session, handleId } = await openKeyed(meeting.slug);

    // The call reaches the server first; its answer waits for the join the page sent right behind it.
    let isAnswered = false;
    const answer = proxy
      .join({ meetId: meeting.slug, display_name: 'Late' }, { 'x-meetcast-join-key': key })
      .finally(() => (isAnswered = true));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(isAnswered).toBe(false);
    browser.socket.send(
      JSON.stringify({
        janus: 'message',
        session_id: session,
        handle_id: handleId,
        transaction: 'late',
        body: { request: 'join', ptype: 'publisher', display: 'camera' },
      }),
    );
    const guest = (await answer).body.data!;
    // Janus' answer to that join was passed on before join-room.php's.
    const joined = browser.messages.find((m) => m.transaction === 'late' && m.janus === 'event');
    expect((joined?.plugindata as { data: { videoroom: string } } | undefined)?.data.videoroom).toBe('joined');
    const feeds = await proxy.roomFeeds(meeting.id);
    expect(feeds.filter((f) => f.display === `${guest.participant_id}:camera`)).toHaveLength(1);
    browser.socket.close();
    hostClient.close();
  });

  it('subscribes the handle a publisher join names to the others’ feeds as soon as Janus answers the join', async () => {
    const { meeting, hostGrant, hostClient } = await proxy.hostedMeeting();
    // The host publishes for real (werift, in Node): Janus lists only feeds whose media is up.
    const peer = loopbackPeer({ video: [useVP8()] });
    peer.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
    const hostMedia = await LightJanusSocket.open(proxy.wsUrl(hostGrant), peer, 'janus.plugin.videoroom');
    const hostJoin = await hostMedia.message({ request: 'join', ptype: 'publisher', display: 'camera' });
    const hostFeed = hostJoin.plugindata!.data.id as number;
    await peer.setLocalDescription(await peer.createOffer());
    const configured = await hostMedia.message(
      { request: 'configure', video: true },
      { type: 'offer', sdp: peer.localDescription!.sdp },
    );
    await peer.setRemoteDescription(configured.jsep!);

    const guest = (await proxy.join({ meetId: meeting.slug, display_name: 'Watcher' })).body.data!;
    const browser = await JanusBrowser.open(proxy.wsUrl(guest.grant));
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
        const feeds = await proxy.roomFeeds(meeting.id);
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
    // Janus' `joined` answer, as the proxy reads it.
    const joined = (listed: unknown) =>
      VideoRoomJoinedSchema.parse({ videoroom: 'joined', id: 99, publishers: listed });
    const subscribe = subscriberJoinFor(join, joined(publishers), 'me');
    expect(subscribe?.read).toMatchObject({
      kind: 'read',
      message: {
        janus: 'message',
        transaction: subscribe!.transaction,
        session_id: 1,
        handle_id: 2,
        body: { request: 'join', ptype: 'subscriber', streams: [{ feed: 11 }, { feed: 12 }], use_msid: true },
      },
    });
    expect(subscriberJoinFor(join, joined([{ id: 10, display: 'me:camera' }]), 'me')).toBeUndefined();
    expect(subscriberJoinFor(join, joined('garbage'), 'me')).toBeUndefined();
  });

  it('bounds the pre-join connections one address may hold', async () => {
    const { meeting, hostClient } = await proxy.hostedMeeting();
    const url = `${proxy.server.baseUrl.replace('http', 'ws')}/janus?meeting=${meeting.slug}`;
    const open: JanusBrowser[] = [];
    for (let i = 0; i < 8; i += 1) open.push(await JanusBrowser.open(url));
    await expect(JanusBrowser.open(url)).rejects.toThrow('HTTP 429');
    for (const connection of open) connection.socket.close();
    hostClient.close();
  });
});
