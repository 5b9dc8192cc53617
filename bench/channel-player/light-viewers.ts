/**
 * A light WebRTC viewer of a broadcast, for counting many on one machine: werift (WebRTC in Node,
 * no decoding) speaking to our viewer proxy exactly as the channel page's janus-watch.ts does:
 * get-broadcast-viewer.php for a grant, then /janus-watch?grant=… with create, attach
 * janus.plugin.streaming, watch, the answer with start, trickled candidates both ways and
 * keepalives. It only counts the RTP packets it receives per kind.
 */
import { RTCPeerConnection, useH264, useOPUS, type RTCIceCandidate } from 'werift';
import WebSocket from 'ws';

const KEEPALIVE_MS = 25_000;

interface JanusReply {
  janus: string;
  transaction?: string;
  data?: { id: number };
  jsep?: { type: 'offer' | 'answer'; sdp: string };
  candidate?: { candidate?: string; sdpMid?: string; sdpMLineIndex?: number; completed?: boolean };
  error?: { code: number; reason: string };
}

interface ViewerGrant {
  webrtc: { url: string; grant: string } | null;
}

export class LightViewer {
  /** RTP packets received, per kind, and the video's bytes (payload and RTP header). */
  readonly packets = { video: 0, audio: 0, videoBytes: 0 };
  /** When the first video RTP packet arrived, and when the viewer started to connect. */
  firstVideoAt: number | undefined;
  readonly startedAt = Date.now();
  private readonly waiting = new Map<string, (reply: JanusReply) => void>();
  private transactions = 0;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private sessionId: number | undefined;
  private handleId: number | undefined;

  private constructor(
    private readonly socket: WebSocket,
    readonly peer: RTCPeerConnection,
  ) {}

  /** Connects one viewer: resolves once Janus has its answer (`start`); media follows by itself. */
  static async open(baseUrl: string, meetId: string): Promise<LightViewer> {
    const answer = await fetch(`${baseUrl}/api/get-broadcast-viewer.php`, {
      method: 'POST',
      body: new URLSearchParams({ meetId }),
    });
    const view = ((await answer.json()) as { data: { data: ViewerGrant } }).data.data;
    if (!view.webrtc) throw new Error('the broadcast offers no WebRTC (not live?)');
    const socket = new WebSocket(
      `${baseUrl.replace(/^http/, 'ws')}${view.webrtc.url}?grant=${encodeURIComponent(view.webrtc.grant)}`,
      'janus-protocol',
    );
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    });
    // The encode's H.264 as the mountpoint offers it, its Opus; IPv4 host candidates as Janus offers.
    // werift's ICE falls back to a STUN server on the internet when given none: this one is a loopback
    // port where nothing listens, so the bench never sends anything off the machine; its gathering
    // (which ICE checks wait for) gives up on it after 0.1 s.
    const peer = new RTCPeerConnection({
      codecs: { video: [useH264({ parameters: 'profile-level-id=42e01f;packetization-mode=1' })], audio: [useOPUS()] },
      iceServers: [{ urls: 'stun:127.0.0.1:9' }],
      iceStunGatherTimeout: 0.1,
      iceUseIpv6: false,
    });
    const viewer = new LightViewer(socket, peer);
    await viewer.watch();
    return viewer;
  }

  private send(message: Record<string, unknown>) {
    const transaction = `t${++this.transactions}`;
    this.socket.send(JSON.stringify({ ...message, transaction }));
    return transaction;
  }

  private ask(message: Record<string, unknown>) {
    return new Promise<JanusReply>((resolve, reject) => {
      const transaction = this.send(message);
      const timer = setTimeout(() => reject(new Error(`no answer to ${String(message.janus)}`)), 15_000);
      this.waiting.set(transaction, (reply) => {
        clearTimeout(timer);
        if (reply.janus === 'error') reject(new Error(reply.error?.reason ?? 'janus error'));
        else resolve(reply);
      });
    });
  }

  private async watch() {
    this.socket.on('message', (raw) => {
      let message: JanusReply;
      try {
        message = JSON.parse(String(raw)) as JanusReply;
      } catch {
        return;
      }
      if (message.janus === 'trickle' && message.candidate) {
        if (!message.candidate.completed && message.candidate.candidate) {
          void this.peer.addIceCandidate(message.candidate as RTCIceCandidate).catch(() => undefined);
        }
        return;
      }
      if (message.janus === 'ack' || !message.transaction) return;
      const resolve = this.waiting.get(message.transaction);
      this.waiting.delete(message.transaction);
      resolve?.(message);
    });
    this.peer.onTrack.subscribe((track) => {
      const kind = track.kind === 'video' ? 'video' : 'audio';
      track.onReceiveRtp.subscribe((rtp) => {
        this.packets[kind] += 1;
        if (kind !== 'video') return;
        this.packets.videoBytes += rtp.payload.length + 12;
        this.firstVideoAt ??= Date.now();
      });
    });
    this.peer.onIceCandidate.subscribe((candidate) => {
      if (this.sessionId === undefined || this.handleId === undefined) return;
      this.send({
        janus: 'trickle',
        session_id: this.sessionId,
        handle_id: this.handleId,
        candidate: candidate ? candidate.toJSON() : { completed: true },
      });
    });

    this.sessionId = (await this.ask({ janus: 'create' })).data?.id;
    this.keepAlive = setInterval(() => this.send({ janus: 'keepalive', session_id: this.sessionId }), KEEPALIVE_MS);
    this.handleId = (await this.ask({ janus: 'attach', session_id: this.sessionId, plugin: 'janus.plugin.streaming' }))
      .data?.id;
    const offer = await this.ask({
      janus: 'message',
      session_id: this.sessionId,
      handle_id: this.handleId,
      body: { request: 'watch' },
    });
    if (!offer.jsep) throw new Error('no offer from the mountpoint');
    await this.peer.setRemoteDescription(offer.jsep);
    await this.peer.setLocalDescription(await this.peer.createAnswer());
    await this.ask({
      janus: 'message',
      session_id: this.sessionId,
      handle_id: this.handleId,
      body: { request: 'start' },
      jsep: { type: 'answer', sdp: this.peer.localDescription!.sdp },
    });
  }

  async close() {
    clearInterval(this.keepAlive);
    this.socket.close();
    await this.peer.close();
  }
}
