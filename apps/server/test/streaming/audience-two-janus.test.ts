import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BroadcastViewer } from '@meetcast/contracts';
import { liveBroadcasts } from '@meetcast/db';
import { LightJanusSocket, loopbackPeer } from '@meetcast/testkit/light-janus-socket';
import pino from 'pino';
import { useH264, useOPUS, type RTCPeerConnection } from 'werift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { janusSessionTimeoutSeconds } from '../../src/media/janus-config.js';
import { ManagedJanus } from '../../src/media/managed-janus.js';
import { ProcessLedger } from '../../src/streaming/composer/child-processes.js';
import { MediaFanOut } from '../../src/streaming/composer/media-fan-out.js';
import { ViewerFeed } from '../../src/streaming/composer/viewer-feed.js';
import { mountpointId } from '../../src/streaming/viewers/viewer-keys.js';
import { insertMeeting } from '../room-helpers.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';

/**
 * The issue asks for 200: they connected (130 in 112 s), but one Node process decrypting every
 * viewer's SRTP in JavaScript fell behind on this two-core machine at a load of 20 (2026-12-04);
 * 60 fit in seconds. The viewers are light; the limit is the test's process, not Janus.
 */
const VIEWERS = Number(process.env.AUDIENCE_VIEWERS ?? 60);
/** Viewers connecting at once: a shared link's burst, within what two cores set up without timing out. */
const AT_ONCE = 10;

/** A light encode like the composer's (H.264, a keyframe a second, AAC), small: 200 viewers decrypt it in Node. */
function smallEncode(fanOut: MediaFanOut): ChildProcess {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=15', '-f', 'lavfi', '-i', 'sine=sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-profile:v', 'baseline'],
      ...['-g', '15', '-keyint_min', '15', '-sc_threshold', '0', '-b:v', '80k'],
      ...['-c:a', 'aac', '-b:a', '32k', '-f', 'mpegts', '-flush_packets', '1', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => fanOut.write(chunk));
  return child;
}

/** A viewer as the channel page's player is (grant, /janus-watch, watch, answer, start), counting video RTP. */
class LightViewer {
  videoPackets = 0;
  private janus: LightJanusSocket | undefined;

  private constructor(readonly peer: RTCPeerConnection) {}

  /** `address`: the viewer's own, as the proxy in front says (X-Forwarded-For): viewers come from many. */
  static async open(server: TestServer, meetId: string, address: string) {
    const view = (await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', { meetId })).body.data!.data;
    if (!view.webrtc) throw new Error('no WebRTC offered');
    const peer = loopbackPeer({
      video: [useH264({ parameters: 'profile-level-id=42e01f;packetization-mode=1' })],
      audio: [useOPUS()],
    });
    const viewer = new LightViewer(peer);
    peer.onTrack.subscribe((track) => {
      if (track.kind === 'video') track.onReceiveRtp.subscribe(() => (viewer.videoPackets += 1));
    });
    const url = `${server.baseUrl.replace(/^http/, 'ws')}${view.webrtc.url}?grant=${encodeURIComponent(view.webrtc.grant)}`;
    viewer.janus = await LightJanusSocket.open(url, peer, 'janus.plugin.streaming', { 'x-forwarded-for': address });
    const offer = await viewer.janus.message({ request: 'watch' });
    if (!offer.jsep) throw new Error('no offer from the mountpoint');
    await peer.setRemoteDescription(offer.jsep);
    await peer.setLocalDescription(await peer.createAnswer());
    await viewer.janus.message({ request: 'start' }, { type: 'answer', sdp: peer.localDescription!.sdp });
    return viewer;
  }

  async close() {
    this.janus?.close();
    await this.peer.close();
  }
}

/**
 * An audience past one Janus (ADR 036): with two instances in JANUS_URL, the broadcast has a
 * mountpoint on each, fed by the composer's viewer feed, and light WebRTC viewers (werift) arriving
 * in bursts through a proxy (each of its own address) are spread over both, every one receiving video.
 */
describe('a broadcast audience over two Janus instances', () => {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-audience-'));
  const secrets = { apiSecret: randomBytes(18).toString('base64url'), adminKey: randomBytes(18).toString('base64url') };
  const instances = ['30000-34999', '35000-39999'].map(
    (rtpPortRange, index) =>
      new ManagedJanus({
        dataDir: join(folder, `janus-${index}`),
        log: pino({ level: 'silent' }),
        rtpPortRange,
        nat11Mapping: undefined,
        publicUrl: 'http://127.0.0.1',
        // As the server would write it for its default reconnect grace.
        sessionTimeoutSeconds: janusSessionTimeoutSeconds(120),
        secrets,
      }),
  );
  let server: TestServer;
  let host: SignedIn;

  beforeAll(async () => {
    const urls = await Promise.all(instances.map((janus) => janus.ensureStarted()));
    server = await startTestServer('pglite', {
      JANUS_URL: urls.join(','),
      JANUS_API_SECRET: secrets.apiSecret,
      JANUS_ADMIN_KEY: secrets.adminKey,
      // Viewers arrive through a proxy that names each one's address.
      TRUST_PROXY: '127.0.0.1',
    });
    host = await server.signUp({ username: 'Audience Host' });
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await Promise.all(instances.map((janus) => janus.stop()));
    rmSync(folder, { recursive: true, force: true });
  });

  it('spreads the viewers evenly over both instances, each receiving video', async () => {
    const { context } = server.built;
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const [broadcast] = await context.db
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, state: 'live', startedAt: new Date() })
      .returning();
    const fanOut = new MediaFanOut();
    const encode = smallEncode(fanOut);
    const ledger = new ProcessLedger(join(folder, 'ledger'), 'test');
    const feed = new ViewerFeed(context, ledger, fanOut, broadcast!.id, () => undefined);
    const viewers: LightViewer[] = [];
    try {
      await feed.start(meeting);
      const startedAt = Date.now();
      for (let first = 0; first < VIEWERS; first += AT_ONCE) {
        const burst = Array.from({ length: Math.min(AT_ONCE, VIEWERS - first) }, (_, index) =>
          LightViewer.open(server, meeting.slug, `198.51.100.${first + index + 1}`),
        );
        viewers.push(...(await Promise.all(burst)));
      }
      const connectedIn = Date.now() - startedAt;
      // Every viewer receives video (a keyframe a second: within a few seconds of its start).
      const deadline = Date.now() + 30_000;
      while (viewers.some((viewer) => viewer.videoPackets === 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 250));
      const receiving = viewers.filter((viewer) => viewer.videoPackets > 0).length;
      // Each instance serves its share, as Janus itself counts them.
      const perInstance = await Promise.all(
        (await context.media.targets()).map(async (target) => {
          const client = await context.media.client(target);
          const place = await context.media.placedStreaming(meeting.id);
          return client.mountpointViewers(mountpointId(context.config, broadcast!.id), place!.secret);
        }),
      );
      console.info(
        `audience: ${VIEWERS} viewers connected in ${connectedIn} ms, ${receiving} receiving video, ` +
          `per instance ${perInstance.join(' + ')}`,
      );
      expect(receiving).toBe(VIEWERS);
      expect(perInstance).toEqual([VIEWERS / 2, VIEWERS / 2]);
      const answer = await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', { meetId: meeting.slug });
      expect(answer.body.data!.data.viewers).toBeGreaterThanOrEqual(VIEWERS);
    } finally {
      await Promise.all(viewers.map((viewer) => viewer.close().catch(() => undefined)));
      await feed.stop();
      encode.kill('SIGKILL');
    }
  }, 120_000);
});
