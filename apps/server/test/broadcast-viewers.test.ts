import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WATCH_STARTED_BY_PROXY_PARAM, type BroadcastViewer } from '@meetcast/contracts';
import { liveBroadcasts } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessLedger } from '../src/streaming/composer/child-processes.js';
import { MediaFanOut } from '../src/streaming/composer/media-fan-out.js';
import { moveBroadcast } from '../src/streaming/state/broadcast-state.js';
import { ViewerFeed } from '../src/streaming/composer/viewer-feed.js';
import { mountpointId, readViewerGrant, VIEWER_GRANT_SECONDS } from '../src/streaming/viewers/viewer-keys.js';
import { JanusBrowser } from './janus-browser.js';
import { insertMeeting } from './room-helpers.js';
import { BACKENDS } from './test-database.js';
import { startTestServer, webDistWithIndex, type SignedIn, type TestServer } from './test-server.js';

type ViewerAnswer = { data: BroadcastViewer };

/** An encode like the composer's (H.264 with a keyframe every second + AAC in MPEG-TS), from test sources. */
function fakeEncode(fanOut: MediaFanOut): ChildProcess {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ...['-g', '30', '-keyint_min', '30', '-sc_threshold', '0', '-b:v', '1000k'],
      ...['-c:a', 'aac', '-b:a', '64k', '-f', 'mpegts', '-flush_packets', '1', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => fanOut.write(chunk));
  return child;
}

async function eventually<T>(read: () => Promise<T>, isDone: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.each(BACKENDS)('broadcast viewers (%s)', (backend) => {
  let server: TestServer;
  let host: SignedIn;
  const viewerOf = (meetId: string) => server.post<ViewerAnswer>('get-broadcast-viewer.php', { meetId });
  /** The viewer state the channel page's HTML carries for its player, if any. */
  const viewerStateInPage = async (meetId: string) => {
    const html = await (await fetch(`${server.baseUrl}/channel/${meetId}`)).text();
    const block = /<script type="application\/json" id="broadcast-viewer">([^<]*)<\/script>/.exec(html);
    return block ? (JSON.parse(block[1]!) as BroadcastViewer) : undefined;
  };
  const watchUrl = (grant: string) =>
    `${server.baseUrl.replace('http', 'ws')}/janus-watch?grant=${encodeURIComponent(grant)}`;

  beforeAll(async () => {
    server = await startTestServer(backend, {
      WEB_DIST_DIR: webDistWithIndex(),
      TURN: 'on',
      TURN_URL: 'turn:turn.example.test:3478',
      TURN_SECRET: 'a-shared-turn-secret',
    });
    host = await server.signUp({ username: 'Viewer Host' });
  });
  afterAll(() => server.close());

  it('answers what a public meeting plays, and nothing of a private or password meeting', async () => {
    const open = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const answer = await viewerOf(open.slug);
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.data!.data).toEqual({
      broadcast_id: null,
      state: 'none',
      started_at: null,
      ended_at: null,
      viewers: null,
      webrtc: null,
      hls_url: null,
      recording: null,
      // People in the room without a broadcast: nothing is on air yet (ADR 022).
      public_state: 'upcoming',
    });
    const secret = await insertMeeting(server, { hostId: host.user.id, state: 'live', isPrivate: 1 });
    const locked = await insertMeeting(server, {
      hostId: host.user.id,
      state: 'live',
      isPrivate: 1,
      password: 'pw123456',
    });
    for (const hidden of [secret, locked]) {
      await server.built.context.db.insert(liveBroadcasts).values({ meetingId: hidden.id, state: 'live' });
      const refused = await viewerOf(hidden.slug);
      expect(refused.httpStatus).toBe(404);
      expect(JSON.stringify(refused.body)).not.toMatch(/grant|hls|live\//);
      expect(await viewerStateInPage(hidden.slug)).toBeUndefined();
    }
    // The broadcast's page carries the same answer, so its player needs not ask before it starts.
    expect(await viewerStateInPage(open.slug)).toEqual(answer.body.data!.data);
    expect((await viewerOf('no-such-meeting')).httpStatus).toBe(404);
    expect((await viewerOf('x'.repeat(500))).httpStatus).toBe(400);
    expect((await server.post('get-broadcast-viewer.php', {})).httpStatus).toBe(400);
  });

  it('runs a mountpoint and HLS with the broadcast: grants watch that mountpoint only, everything ends with it', async () => {
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const [broadcast] = await server.built.context.db
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, state: 'live', startedAt: new Date() })
      .returning();
    const { context } = server.built;
    const fanOut = new MediaFanOut();
    const encode = fakeEncode(fanOut);
    const ledger = new ProcessLedger(mkdtempSync(join(tmpdir(), 'meetcast-viewers-')), 'test');
    const feed = new ViewerFeed(context, ledger, fanOut, broadcast!.id, () => undefined);
    try {
      await feed.start(meeting);
      const live = (await viewerOf(meeting.slug)).body.data!.data;
      expect(live).toMatchObject({ broadcast_id: broadcast!.id, state: 'live', viewers: 0 });
      expect(live.webrtc?.url).toBe('/janus-watch');
      const inPage = await viewerStateInPage(meeting.slug);
      expect(inPage).toMatchObject({ broadcast_id: broadcast!.id, state: 'live', hls_url: live.hls_url });
      expect(readViewerGrant(context.config, inPage!.webrtc!.grant)).toBe(broadcast!.id);
      // Viewers behind a strict NAT reach Janus through the installation's TURN server, as callers do.
      // Its credential is made for this answer and expires (ADR 035); the shared secret is never sent.
      const [turn] = live.webrtc?.ice_servers ?? [];
      expect(turn).toMatchObject({ urls: 'turn:turn.example.test:3478', username: expect.stringMatching(/^\d+:viewer-/) });
      expect(Number(turn!.username!.split(':')[0]) * 1000).toBeGreaterThan(Date.now());
      expect(JSON.stringify(live)).not.toContain('a-shared-turn-secret');
      expect(live.webrtc!.expires_at - Date.now() / 1000).toBeLessThanOrEqual(VIEWER_GRANT_SECONDS);
      // The grant is no Janus secret: neither the room's pin nor its secret is in any answer.
      const place = await context.media.placedStreaming(meeting.id);
      expect(JSON.stringify(live)).not.toContain(place!.pin);
      expect(JSON.stringify(live)).not.toContain(place!.secret);

      // HLS: the playlist and its segments, one keyframe (a second) each, only at the signed address.
      const playlistUrl = `${server.baseUrl}${live.hls_url}`;
      const playlist = await eventually(
        async () => {
          const response = await fetch(playlistUrl);
          return response.status === 200 ? await response.text() : '';
        },
        (text) => text.includes('.ts'),
      );
      expect(playlist).toContain('#EXTM3U');
      expect(playlist).toContain('#EXT-X-INDEPENDENT-SEGMENTS');
      // Fit for any HTTP cache in front (ADR 034): the live playlist for a second, a segment for good.
      expect((await fetch(playlistUrl)).headers.get('cache-control')).toBe('public, max-age=1');
      const durations = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((match) => Number(match[1]));
      for (const seconds of durations) expect(seconds).toBeCloseTo(1, 1);
      const segment = /^segment-\d+\.ts$/m.exec(playlist)![0];
      const segmentAnswer = await fetch(playlistUrl.replace('index.m3u8', segment));
      expect(segmentAnswer.status).toBe(200);
      expect(segmentAnswer.headers.get('content-type')).toBe('video/mp2t');
      expect(segmentAnswer.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
      const forged = playlistUrl.replace(/\/live\/(\d+)\/[0-9a-f]{32}\//, '/live/$1/0123456789abcdef0123456789abcdef/');
      expect((await fetch(forged)).status).toBe(404);
      expect((await fetch(playlistUrl.replace('index.m3u8', '..%2F..%2Fsecrets.key'))).status).toBe(404);

      // HLS has no connection to count: a player counts while it keeps asking for the playlist.
      await fetch(playlistUrl, { headers: { 'user-agent': 'second HLS player' } });
      const counted = await eventually(
        async () => (await viewerOf(meeting.slug)).body.data!.data.viewers,
        (viewers) => viewers === 2,
        6000,
      );
      expect(counted).toBe(2);

      // WebRTC: only a current, untampered grant opens the proxy.
      await expect(JanusBrowser.open(watchUrl('1.1.00000000000000000000000000000000'))).rejects.toThrow('HTTP 401');
      const tampered = live.webrtc!.grant.replace(/^\d+/, String(broadcast!.id + 1));
      await expect(JanusBrowser.open(watchUrl(tampered))).rejects.toThrow('HTTP 401');
      expect(readViewerGrant(context.config, live.webrtc!.grant, Date.now() + 120_000)).toBeUndefined();

      const viewer = await JanusBrowser.open(watchUrl(live.webrtc!.grant));
      const sessionId = ((await viewer.request({ janus: 'create' })).data as { id: number }).id;
      expect((await viewer.request({ janus: 'create' })).janus).toBe('error');
      const room = await viewer.request({ janus: 'attach', session_id: sessionId, plugin: 'janus.plugin.videoroom' });
      expect(room.janus).toBe('error');
      const handleId = (
        (await viewer.request({ janus: 'attach', session_id: sessionId, plugin: 'janus.plugin.streaming' })).data as {
          id: number;
        }
      ).id;
      const ask = (body: Record<string, unknown>) =>
        viewer.request({ janus: 'message', session_id: sessionId, handle_id: handleId, body });
      for (const body of [{ request: 'list' }, { request: 'info', id: 1 }, { request: 'destroy', id: 1 }]) {
        expect((await ask(body)).janus).toBe('error');
      }
      // Whatever mountpoint the viewer names, it gets its broadcast's, with the H.264 and Opus streams.
      const offer = await ask({ request: 'watch', id: 12345, pin: 'guess' });
      const sdp = (offer.jsep as { sdp: string } | undefined)?.sdp ?? '';
      expect(sdp).toMatch(/H264\/90000/);
      expect(sdp).toMatch(/opus\/48000/);
      // The viewer's browser is asked to show frames as soon as they are decoded (no smoothing delay).
      expect(sdp).toMatch(/extmap:\d+ http:\/\/www\.webrtc\.org\/experiments\/rtp-hdrext\/playout-delay/);
      viewer.socket.close();
      // Its session ends with its connection: Janus has nothing left to claim back (it would keep
      // counting and feeding the viewer for its 20-s reclaim time).
      const direct = await JanusBrowser.open(place!.target.url);
      const apisecret = place!.target.apiSecret ? { apisecret: place!.target.apiSecret } : {};
      await expect
        .poll(async () => (await direct.request({ janus: 'claim', session_id: sessionId, ...apisecret })).janus)
        .toBe('error');
      direct.socket.close();

      // `start=1`: the proxy opens the session, attaches and asks to watch by itself; the page's
      // first message is its answer, to the session and handle the offer's event names.
      const started = await JanusBrowser.open(`${watchUrl(live.webrtc!.grant)}&${WATCH_STARTED_BY_PROXY_PARAM}=1`);
      await expect
        .poll(() => started.messages.find((m) => (m.jsep as { type?: string } | undefined)?.type === 'offer'))
        .toBeTruthy();
      const event = started.messages.find((m) => (m.jsep as { type?: string } | undefined)?.type === 'offer')!;
      expect((event.jsep as { sdp: string }).sdp).toMatch(/H264\/90000/);
      expect(typeof event.session_id).toBe('number');
      expect(typeof event.sender).toBe('number');
      // Still one session per connection: the page cannot open a second one.
      expect((await started.request({ janus: 'create' })).janus).toBe('error');
      started.socket.close();

      // A Janus that restarts has lost the mountpoint: the feed creates it again (Janus picks new
      // ports, so the RTP goes to those), and a new viewer is offered the broadcast again.
      const managed = context.media.managed!;
      const janusBefore = managed.pid!;
      process.kill(janusBefore, 'SIGKILL');
      await expect.poll(() => managed.pid !== undefined && managed.pid !== janusBefore, { timeout: 15_000 }).toBe(true);
      const mountpointThere = async () => {
        const current = await context.media.placedStreaming(meeting.id);
        const info = current?.client.mountpointViewers(mountpointId(context.config, broadcast!.id), current.secret);
        return info
          ? info.then(
              () => true,
              () => false,
            )
          : false;
      };
      await expect.poll(mountpointThere, { timeout: 25_000, interval: 500 }).toBe(true);
      const again = (await viewerOf(meeting.slug)).body.data!.data;
      const returning = await JanusBrowser.open(watchUrl(again.webrtc!.grant));
      const session = ((await returning.request({ janus: 'create' })).data as { id: number }).id;
      const streaming = (
        (await returning.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.streaming' })).data as {
          id: number;
        }
      ).id;
      const offerAgain = await returning.request({
        janus: 'message',
        session_id: session,
        handle_id: streaming,
        body: { request: 'watch', id: 1 },
      });
      expect((offerAgain.jsep as { sdp: string } | undefined)?.sdp ?? '').toMatch(/H264\/90000/);
      returning.socket.close();

      // The end: HLS gone from its address and the folder, the mountpoint destroyed, grants refused.
      // Written by the broadcasts' one writer, which announces it: cached viewer answers go at once.
      await moveBroadcast(context, broadcast!.id, 'ended');
      await feed.stop();
      expect((await fetch(playlistUrl)).status).toBe(404);
      expect(await mountpointThere()).toBe(false);
      await expect(JanusBrowser.open(watchUrl(live.webrtc!.grant))).rejects.toThrow('HTTP 401');
      const ended = (await viewerOf(meeting.slug)).body.data!.data;
      expect(ended).toMatchObject({ state: 'ended', webrtc: null, hls_url: null, viewers: null });
    } finally {
      encode.kill('SIGKILL');
      await feed.stop();
    }
  });

  it('describes a public broadcast page over oEmbed and lets only its embeddable player be framed', async () => {
    const base = server.built.context.config.publicUrl.replace(/\/$/, '');
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live', name: 'Launch <day>' });
    const oembed = (url: string, extra = '') =>
      fetch(`${server.baseUrl}/api/oembed?url=${encodeURIComponent(url)}${extra}`);
    const answer = await oembed(`${base}/channel/${meeting.slug}`, '&maxwidth=480');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { type: string; title: string; html: string; width: number; height: number };
    expect(body).toMatchObject({ type: 'video', title: 'Launch <day>', width: 480, height: 270 });
    expect(body.html).toContain(`src="${base}/channel/${meeting.slug}?embed=1"`);
    expect(body.html).toContain('title="Launch &#60;day&#62;"');

    const hidden = await insertMeeting(server, { hostId: host.user.id, state: 'live', isPrivate: 1 });
    expect((await oembed(`${base}/channel/${hidden.slug}`)).status).toBe(404);
    expect((await oembed(`https://elsewhere.example/channel/${meeting.slug}`)).status).toBe(404);
    expect((await oembed(`${base}/channel/${meeting.slug}`, '&format=xml')).status).toBe(400);
    expect((await fetch(`${server.baseUrl}/api/oembed`)).status).toBe(400);

    const framePolicy = async (path: string) => {
      const response = await fetch(`${server.baseUrl}${path}`);
      await response.arrayBuffer();
      return {
        csp: response.headers.get('content-security-policy') ?? '',
        xfo: response.headers.get('x-frame-options'),
      };
    };
    const embedded = await framePolicy(`/channel/${meeting.slug}?embed=1`);
    expect(embedded.csp).toContain('frame-ancestors *');
    expect(embedded.xfo).toBeNull();
    for (const path of [
      `/channel/${meeting.slug}`,
      `/channel/${meeting.slug}?embed=10`,
      `/channels/${meeting.slug}?embed=1`,
    ]) {
      expect((await framePolicy(path)).csp).toContain("frame-ancestors 'none'");
    }
  });
});
