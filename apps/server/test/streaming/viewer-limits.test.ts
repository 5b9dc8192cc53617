import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { WATCH_STARTED_BY_PROXY_PARAM, type BroadcastViewer, type Meeting } from '@meetcast/contracts';
import { liveBroadcasts } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_WATCH_START_MS } from '../../src/streaming/viewers/viewer-proxy.js';
import { issueViewerGrant, liveStreamFolder } from '../../src/streaming/viewers/viewer-keys.js';
import { JanusBrowser } from '../janus-browser.js';
import { addMeeting, meetingFields } from '../meeting-helpers.js';
import { BACKENDS } from '../test-database.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';

/**
 * The public audience of a broadcast (ADR 011) within bounds: a grant, an address and a broadcast
 * open only so many viewer connections, a connection that never watches gives its Janus session
 * back, and a meeting made private loses its public audience at once.
 */
describe.each(BACKENDS)('viewer connections (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;

  beforeAll(async () => {
    server = await startTestServer(backend, {
      VIEWER_CONNECTIONS_PER_ADDRESS: '4',
      VIEWER_CONNECTIONS_PER_BROADCAST: '3',
    });
    host = await server.signUp({ username: 'Audience Host' });
  });
  afterAll(() => server.close());

  const watchUrl = (grant: string) =>
    `${server.baseUrl.replace('http', 'ws')}/janus-watch?grant=${encodeURIComponent(grant)}&${WATCH_STARTED_BY_PROXY_PARAM}=1`;
  /** A public meeting with a running broadcast, placed on Janus, and a grant to watch it. */
  const runningBroadcast = async () => {
    const meeting = await addMeeting(server, host);
    const { context } = server.built;
    const [broadcast] = await context.db
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, state: 'live', startedAt: new Date() })
      .returning();
    await context.media.streamingFor({ id: meeting.id, name: meeting.name });
    return { meeting, broadcastId: broadcast!.id };
  };
  /** A grant of its own (the grant names its expiry, so a second later is another grant). */
  const grantFor = (broadcastId: number, secondsLater = 0) =>
    issueViewerGrant(server.built.context.config, broadcastId, Date.now() + secondsLater * 1000).grant;
  const attempt = (grant: string) =>
    JanusBrowser.open(watchUrl(grant)).then(
      (viewer) => viewer,
      (error: unknown) => String(error),
    );
  /** The Janus session the proxy opened for this connection. */
  const sessionOf = async (viewer: JanusBrowser) => {
    await expect.poll(() => viewer.messages.some((m) => m.transaction === 'proxy-create')).toBe(true);
    const created = viewer.messages.find((m) => m.transaction === 'proxy-create')!;
    return (created.data as { id: number }).id;
  };
  /** Whether Janus still knows a session (claiming it back works only while it lives). */
  const janusKnows = async (meetingId: number, sessionId: number) => {
    const place = await server.built.context.media.placedStreaming(meetingId);
    const direct = await JanusBrowser.open(place!.target.url);
    try {
      const apisecret = place!.target.apiSecret ? { apisecret: place!.target.apiSecret } : {};
      const answer = await direct.request({ janus: 'claim', session_id: sessionId, ...apisecret });
      return answer.janus !== 'error';
    } finally {
      direct.socket.close();
    }
  };

  it('refuses connections beyond a grant, an address and a broadcast, and ends the session of one that never watches', async () => {
    const first = await runningBroadcast();
    const second = await runningBroadcast();
    const grant = grantFor(first.broadcastId);
    const admitted = [await attempt(grant), await attempt(grant)];
    for (const viewer of admitted) expect(viewer).toBeInstanceOf(JanusBrowser);
    // One grant is one viewer: a burst of connections with it opens nothing more.
    const burst = await Promise.all(Array.from({ length: 20 }, () => attempt(grant)));
    expect(burst).toEqual(Array.from({ length: 20 }, () => 'Error: HTTP 429'));
    // The broadcast's own limit (3), then the address's (4) across broadcasts.
    const another = grantFor(first.broadcastId, 1);
    const third = await attempt(another);
    expect(third).toBeInstanceOf(JanusBrowser);
    expect(await attempt(another)).toBe('Error: HTTP 429');
    const fourth = await attempt(grantFor(second.broadcastId));
    expect(fourth).toBeInstanceOf(JanusBrowser);
    expect(await attempt(grantFor(second.broadcastId, 1))).toBe('Error: HTTP 429');

    // None of them answers the offer: each is closed once its time to start watching is over, and
    // its Janus session ends with it; their places are free again.
    const viewers = [...admitted, third, fourth].filter((viewer) => viewer instanceof JanusBrowser);
    const sessions = await Promise.all(viewers.map(sessionOf));
    expect(await janusKnows(first.meeting.id, sessions[0]!)).toBe(true);
    await expect
      .poll(() => viewers.every((viewer) => viewer.socket.readyState === WebSocket.CLOSED), {
        timeout: VIEWER_WATCH_START_MS + 10_000,
        interval: 500,
      })
      .toBe(true);
    for (const session of sessions) await expect.poll(() => janusKnows(first.meeting.id, session)).toBe(false);
    const again = await attempt(grant);
    expect(again).toBeInstanceOf(JanusBrowser);
    (again as JanusBrowser).socket.close();
  });

  it('ends the public audience at once when the meeting is made private: HLS address, grants, open connections', async () => {
    const { meeting, broadcastId } = await runningBroadcast();
    const { context } = server.built;
    // The HLS files the broadcast's viewer feed writes (no encode needed to serve them).
    const folder = liveStreamFolder(context.config, broadcastId);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.m3u8'), '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nsegment-1.ts\n');
    writeFileSync(join(folder, 'segment-1.ts'), Buffer.alloc(188, 0x47));
    const viewerAnswer = await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', {
      meetId: meeting.slug,
    });
    const state = viewerAnswer.body.data!.data;
    const playlist = `${server.baseUrl}${state.hls_url}`;
    expect((await fetch(playlist)).status).toBe(200);
    expect((await fetch(playlist.replace('index.m3u8', 'segment-1.ts'))).status).toBe(200);
    const watching = await attempt(state.webrtc!.grant);
    expect(watching).toBeInstanceOf(JanusBrowser);
    const viewer = watching as JanusBrowser;
    const session = await sessionOf(viewer);

    const edited = await server.post<Meeting>('edit-meeting.php', {
      token: host.token,
      id: meeting.id,
      ...meetingFields({
        name: meeting.name,
        slug: meeting.slug,
        start_time: meeting.start_time,
        end_time: meeting.end_time,
        is_private: 1,
      }),
    });
    expect(edited.httpStatus).toBe(200);
    // Before the next regular check of the open connections (3 s): the edit itself dropped it.
    await expect.poll(() => viewer.socket.readyState === WebSocket.CLOSED, { timeout: 1500, interval: 50 }).toBe(true);
    expect((await fetch(playlist)).status).toBe(404);
    expect((await fetch(playlist.replace('index.m3u8', 'segment-1.ts'))).status).toBe(404);
    expect(await attempt(state.webrtc!.grant)).toBe('Error: HTTP 401');
    expect(await attempt(grantFor(broadcastId, 2))).toBe('Error: HTTP 401');
    await expect.poll(() => janusKnows(meeting.id, session)).toBe(false);
    expect((await server.post('get-broadcast-viewer.php', { meetId: meeting.slug })).httpStatus).toBe(404);
  });
});
