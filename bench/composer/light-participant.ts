/**
 * A participant without a browser, for the composer bench's four tiles: in a real meeting the
 * others' browsers run on their own machines, and three Chromiums encoding simulcast beside the
 * composer on two cores measure only their own starvation (ADR 014). It joins as a guest through
 * the same calls as the room page — join-room.php, the room's Socket.IO connection with its camera
 * and microphone on, and /janus with a publisher join and an offer — and publishes a clip that
 * ffmpeg loops without re-encoding (VP8 and silent Opus) through werift (WebRTC in Node).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { join } from 'node:path';
import {
  JoinRoomOutputSchema,
  ROOM_MESSAGE,
  ROOM_NAMESPACE,
  ROOM_PROTOCOL_VERSION,
  type RoomClientMessage,
} from '@meetcast/contracts';
import { io, type Socket } from 'socket.io-client';
import { MediaStreamTrack, useOPUS, useVP8, type RTCPeerConnection } from 'werift';
import { LightJanusSocket, loopbackPeer } from '@meetcast/testkit/light-janus-socket';
import type { ServerInfo } from './bench-server';

/**
 * Encodes the looped clip once: a moving 640×360 test pattern at 30 fps in grey (the clock's reader
 * looks for the clock's magenta anywhere in the broadcast, and the coloured pattern has some), a
 * keyframe a second, and silence (the sound-against-picture reading hears the clock's beeps only).
 */
export function makeParticipantClip(folder: string): string {
  const clip = join(folder, 'participant-clip.webm');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30,hue=s=0'],
    ...['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo'],
    ...['-t', '10', '-c:v', 'libvpx', '-b:v', '600k', '-g', '30', '-deadline', 'realtime', '-cpu-used', '8'],
    ...['-c:a', 'libopus', '-b:a', '32k', clip],
  ]);
  return clip;
}

/** A UDP port on the loopback whose RTP packets go to `track`. */
async function rtpInto(track: MediaStreamTrack): Promise<UdpSocket> {
  const socket = createSocket('udp4');
  socket.on('message', (packet) => track.writeRtp(packet));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

const CONNECT_TIMEOUT_MS = 20_000;
const CLOSE_TIMEOUT_MS = 2000;

function connected(peer: RTCPeerConnection, name: string) {
  if (peer.connectionState === 'connected') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no connection to Janus`)), CONNECT_TIMEOUT_MS);
    peer.connectionStateChange.subscribe((state) => {
      if (state !== 'connected') return;
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Media being sent until it is stopped. */
interface Sending {
  stop(): void;
}

/** What a light participant sends: RTP of VP8 to `videoPort` and of Opus to `audioPort` on the loopback. */
export type MediaSource = (videoPort: number, audioPort: number) => Sending;

/** The looped clip (makeParticipantClip), sent as it is, in real time. */
export function loopClip(clip: string): MediaSource {
  return (videoPort, audioPort) => {
    const player = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip],
        ...['-map', '0:v', '-c', 'copy', '-f', 'rtp', `rtp://127.0.0.1:${videoPort}?pkt_size=1200`],
        ...['-map', '0:a', '-c', 'copy', '-f', 'rtp', `rtp://127.0.0.1:${audioPort}`],
      ],
      { stdio: 'ignore' },
    );
    return { stop: () => player.kill('SIGKILL') };
  };
}

export class LightParticipant {
  private constructor(
    private readonly room: Socket,
    private readonly janus: LightJanusSocket,
    private readonly peer: RTCPeerConnection,
    private readonly ports: UdpSocket[],
    private readonly media: Sending,
  ) {}

  static async join(info: ServerInfo, name: string, source: MediaSource): Promise<LightParticipant> {
    const response = await fetch(`${info.url}/api/join-room.php`, {
      method: 'POST',
      body: new URLSearchParams({ meetId: info.slug, display_name: name, browser_id: randomUUID() }),
    });
    const body: unknown = await response.json();
    if (!response.ok) throw new Error(`${name}: join-room.php answered ${response.status} ${JSON.stringify(body)}`);
    const joined = JoinRoomOutputSchema.parse(body).data;
    if (!joined.media) throw new Error(`${name} was not admitted (${joined.state})`);

    const room = io(`${info.url}${ROOM_NAMESPACE}`, {
      auth: { grant: joined.grant, protocol: ROOM_PROTOCOL_VERSION },
      transports: ['websocket'],
    });
    room.on('connect', () =>
      room.emit(ROOM_MESSAGE, {
        type: 'media.state',
        audio: true,
        video: true,
        screen: false,
      } satisfies RoomClientMessage),
    );

    const video = new MediaStreamTrack({ kind: 'video' });
    const audio = new MediaStreamTrack({ kind: 'audio' });
    const peer = loopbackPeer({ video: [useVP8()], audio: [useOPUS()] });
    peer.addTransceiver(video, { direction: 'sendonly' });
    peer.addTransceiver(audio, { direction: 'sendonly' });
    const url = `${info.url.replace(/^http/, 'ws')}${joined.media.path}?grant=${encodeURIComponent(joined.grant)}`;
    const janus = await LightJanusSocket.open(url, peer, 'janus.plugin.videoroom');
    const publisherJoin = await janus.message({ request: 'join', ptype: 'publisher', display: 'camera' });
    if (publisherJoin.plugindata?.data.videoroom !== 'joined') throw new Error(`${name}: no publisher join`);
    await peer.setLocalDescription(await peer.createOffer());
    const configured = await janus.message(
      { request: 'configure', audio: true, video: true },
      { type: 'offer', sdp: peer.localDescription!.sdp },
    );
    if (!configured.jsep) throw new Error(`${name}: Janus did not answer the offer`);
    await peer.setRemoteDescription(configured.jsep);
    await connected(peer, name);

    const ports = [await rtpInto(video), await rtpInto(audio)];
    const [videoPort, audioPort] = ports.map((port) => port.address().port);
    return new LightParticipant(room, janus, peer, ports, source(videoPort!, audioPort!));
  }

  async leave() {
    this.media.stop();
    for (const port of this.ports) port.close();
    this.room.emit(ROOM_MESSAGE, { type: 'room.leave' } satisfies RoomClientMessage);
    this.room.close();
    this.janus.close();
    // werift's close can wait on its transports for long after the far end is gone.
    await Promise.race([this.peer.close(), new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS))]);
  }
}
