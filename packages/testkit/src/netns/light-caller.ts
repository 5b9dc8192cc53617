/**
 * One participant without a browser for the network tests and benches (ADR 035), run as its own
 * process so that it can run inside a network namespace (`ip netns exec … node --import tsx
 * light-caller.ts '<json>'`). It joins a live meeting as the room page does for media (join-room.php,
 * then /janus with the join's grant and ICE servers; no room connection: it needs none), publishes a
 * moving VP8 test pattern that ffmpeg encodes in real time, subscribes to the first other publisher,
 * and prints one JSON line a second on stdout: video RTP packets received, and the candidate pairs
 * its two connections use. werift takes the first TURN address it is given only, so the caller picks
 * the transport (a browser tries them all).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { JoinRoomOutputSchema } from '@meetcast/contracts';
import { MediaStreamTrack, RTCPeerConnection, useH264, useOPUS, useVP8 } from 'werift';
import { LightJanusSocket } from '../light-janus-socket.js';

export interface CallerOptions {
  baseUrl: string;
  slug: string;
  name: string;
  token?: string;
  /** Which of the TURN addresses the join hands out werift uses (`tls`: the `turns:` one); `none`: no TURN at all. */
  turn: 'udp' | 'tcp' | 'tls' | 'none';
  /** The PEM certificate a `turns:` server is trusted by (a test's self-signed one); Node's own roots otherwise. */
  turnCa?: string;
  /** Only relayed candidates (a browser told `iceTransportPolicy: 'relay'`). */
  relayOnly?: boolean;
  /** `viewer`: watches the meeting's broadcast as the channel page does (get-broadcast-viewer.php, /janus-watch). */
  role?: 'caller' | 'viewer';
}

export interface CallerReport {
  event: 'joined' | 'publishing' | 'subscribed' | 'stats' | 'error';
  participantId?: string;
  received?: number;
  /** From the join request to the first video packet received from the other participant. */
  firstVideoMs?: number;
  publisher?: string;
  subscriber?: string;
  message?: string;
}

const report = (line: CallerReport) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pairOf(peer: RTCPeerConnection | undefined): string | undefined {
  const local = peer?.iceTransports[0]?.getSelectedCandidatePair()?.local.candidate;
  // `candidate:<foundation> <component> <protocol> <priority> <address> <port> typ <type> …`
  return local ? / typ (\w+)/.exec(local)?.[1] : undefined;
}

interface IceServer {
  urls: string;
  username?: string;
  credential?: string;
}

function peerFor(options: CallerOptions, iceServers: IceServer[], codecs: RTCPeerConnection['config']['codecs']) {
  const turn = iceServers.find(({ urls }) =>
    options.turn === 'tls' ? urls.startsWith('turns:') : urls.startsWith('turn:') && urls.endsWith(`=${options.turn}`),
  );
  if (options.turn !== 'none' && !turn) throw new Error(`no TURN over ${options.turn} was handed out`);
  return new RTCPeerConnection({
    codecs,
    // A STUN address where nothing listens keeps werift from asking one on the internet.
    iceServers: [{ urls: 'stun:127.0.0.1:9' }, ...(turn ? [turn] : [])],
    // werift checks the TURN server's certificate as Node's TLS does (name or IP address, chain).
    ...(options.turnCa ? { turnTlsOptions: { ca: options.turnCa } } : {}),
    iceStunGatherTimeout: 0.1,
    iceTransportPolicy: options.relayOnly ? 'relay' : 'all',
    iceUseIpv6: false,
  });
}

/** A channel-page viewer: the broadcast's WebRTC grant and ICE servers, then watch, answer, start. */
async function watch(options: CallerOptions) {
  const startedAt = performance.now();
  const response = await fetch(`${options.baseUrl}/api/get-broadcast-viewer.php`, {
    method: 'POST',
    body: new URLSearchParams({ meetId: options.slug }),
  });
  const view = (
    (await response.json()) as {
      data: { data: { webrtc: { url: string; grant: string; ice_servers: IceServer[] } | null } };
    }
  ).data.data;
  if (!view.webrtc) throw new Error('the broadcast offers no WebRTC');
  const peer = peerFor(options, view.webrtc.ice_servers, {
    video: [useH264({ parameters: 'profile-level-id=42e01f;packetization-mode=1' })],
    audio: [useOPUS()],
  });
  let received = 0;
  let firstVideoMs: number | undefined;
  peer.onTrack.subscribe((track) => {
    if (track.kind !== 'video') return;
    track.onReceiveRtp.subscribe(() => {
      received += 1;
      firstVideoMs ??= Math.round(performance.now() - startedAt);
    });
  });
  const url = `${options.baseUrl.replace(/^http/, 'ws')}${view.webrtc.url}?grant=${encodeURIComponent(view.webrtc.grant)}`;
  const janus = await LightJanusSocket.open(url, peer, 'janus.plugin.streaming');
  const offer = await janus.message({ request: 'watch' });
  if (!offer.jsep) throw new Error('no offer from the mountpoint');
  await peer.setRemoteDescription(offer.jsep);
  await peer.setLocalDescription(await peer.createAnswer());
  await janus.message({ request: 'start' }, { type: 'answer', sdp: peer.localDescription!.sdp });
  report({ event: 'subscribed' });
  setInterval(() => report({ event: 'stats', received, firstVideoMs, subscriber: pairOf(peer) }), 1000);
  process.once('SIGTERM', () => process.exit(0));
}

async function main(options: CallerOptions) {
  if (options.role === 'viewer') return watch(options);
  const startedAt = performance.now();
  const response = await fetch(`${options.baseUrl}/api/join-room.php`, {
    method: 'POST',
    body: new URLSearchParams({
      meetId: options.slug,
      display_name: options.name,
      browser_id: randomUUID(),
      ...(options.token ? { token: options.token } : {}),
    }),
  });
  const joined = JoinRoomOutputSchema.parse(await response.json()).data;
  if (!joined.media) throw new Error(`not admitted (${joined.state})`);
  report({ event: 'joined', participantId: joined.participant_id });

  const iceServers = joined.media.ice_servers;
  const newPeer = () => peerFor(options, iceServers, { video: [useVP8()], audio: [] });
  const mediaUrl = `${options.baseUrl.replace(/^http/, 'ws')}${joined.media.path}?grant=${encodeURIComponent(joined.grant)}`;

  const publisher = newPeer();
  const video = new MediaStreamTrack({ kind: 'video' });
  publisher.addTransceiver(video, { direction: 'sendonly' });
  const publishing = await LightJanusSocket.open(mediaUrl, publisher, 'janus.plugin.videoroom');
  await publishing.message({ request: 'join', ptype: 'publisher', display: 'camera' });
  await publisher.setLocalDescription(await publisher.createOffer());
  const configured = await publishing.message(
    { request: 'configure', audio: false, video: true },
    { type: 'offer', sdp: publisher.localDescription!.sdp },
  );
  if (!configured.jsep) throw new Error('Janus did not answer the offer');
  await publisher.setRemoteDescription(configured.jsep);
  const rtp = createSocket('udp4');
  rtp.on('message', (packet) => video.writeRtp(packet));
  await new Promise<void>((resolve) => rtp.bind(0, '127.0.0.1', resolve));
  const encoder: ChildProcess = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=15'],
      ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k', '-g', '15'],
      ...['-f', 'rtp', `rtp://127.0.0.1:${rtp.address().port}?pkt_size=1200`],
    ],
    { stdio: 'ignore' },
  );
  report({ event: 'publishing' });

  let subscriber: RTCPeerConnection | undefined;
  let received = 0;
  let firstVideoMs: number | undefined;
  const stats = setInterval(
    () =>
      report({ event: 'stats', received, firstVideoMs, publisher: pairOf(publisher), subscriber: pairOf(subscriber) }),
    1000,
  );
  const stop = () => {
    clearInterval(stats);
    encoder.kill('SIGKILL');
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  // The first other publisher in the room is subscribed to, as the page does.
  for (;;) {
    const listed = await publishing.message({ request: 'listparticipants' });
    const participants = (listed.plugindata?.data.participants ?? []) as {
      id: number;
      display?: string;
      publisher: boolean;
    }[];
    const other = participants.find(
      (p) => p.publisher && p.display !== undefined && !p.display.startsWith(`${joined.participant_id}:`),
    );
    if (other) {
      subscriber = newPeer();
      subscriber.onTrack.subscribe((track) =>
        track.onReceiveRtp.subscribe(() => {
          received += 1;
          firstVideoMs ??= Math.round(performance.now() - startedAt);
        }),
      );
      const watching = await LightJanusSocket.open(mediaUrl, subscriber, 'janus.plugin.videoroom');
      const offer = await watching.message({ request: 'join', ptype: 'subscriber', streams: [{ feed: other.id }] });
      if (!offer.jsep) throw new Error('no offer for the subscription');
      await subscriber.setRemoteDescription(offer.jsep);
      await subscriber.setLocalDescription(await subscriber.createAnswer());
      await watching.message({ request: 'start' }, { type: 'answer', sdp: subscriber.localDescription!.sdp });
      report({ event: 'subscribed' });
      return;
    }
    await sleep(300);
  }
}

main(JSON.parse(process.argv[2] ?? '{}') as CallerOptions).catch((error: unknown) => {
  report({ event: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
