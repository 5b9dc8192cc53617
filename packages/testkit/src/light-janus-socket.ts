/**
 * The Janus side of light WebRTC clients (werift in Node, no browser), for the server's tests and the
 * benches: one WebSocket to our proxy speaking janus-protocol as janus.js does — transactions, one
 * session and one handle, keepalives, and ICE candidates trickled both ways.
 */
import { RTCPeerConnection, type RTCIceCandidate, type RTCPeerConnectionConfig } from 'werift';
import WebSocket from 'ws';

/**
 * A werift peer connection for talking to the local Janus: IPv4 host candidates, as Janus offers.
 * werift's ICE falls back to a STUN server on the internet when given none: this one is a loopback
 * port where nothing listens, so a bench never sends anything off the machine; its gathering (which
 * ICE checks wait for) gives up on it after 0.1 s.
 */
export function loopbackPeer(codecs: RTCPeerConnectionConfig['codecs']) {
  return new RTCPeerConnection({
    codecs,
    iceServers: [{ urls: 'stun:127.0.0.1:9' }],
    iceStunGatherTimeout: 0.1,
    iceUseIpv6: false,
  });
}

const KEEPALIVE_MS = 25_000;
const ANSWER_TIMEOUT_MS = 15_000;

export interface JanusReply {
  janus: string;
  transaction?: string;
  data?: { id: number };
  plugindata?: { data: Record<string, unknown> };
  jsep?: { type: 'offer' | 'answer'; sdp: string };
  candidate?: { candidate?: string; sdpMid?: string; sdpMLineIndex?: number; completed?: boolean };
  error?: { code: number; reason: string };
}

export class LightJanusSocket {
  private readonly waiting = new Map<string, (reply: JanusReply) => void>();
  private transactions = 0;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private sessionId: number | undefined;
  private handleId: number | undefined;

  private constructor(
    private readonly socket: WebSocket,
    private readonly peer: RTCPeerConnection,
  ) {}

  /** Opens `url` (our proxy, with its grant in the query) for `peer`, and attaches `plugin`. */
  static async open(
    url: string,
    peer: RTCPeerConnection,
    plugin: string,
    /** Request headers, e.g. the X-Forwarded-For a proxy would add for a viewer of its own address. */
    headers: Record<string, string> = {},
  ): Promise<LightJanusSocket> {
    const socket = new WebSocket(url, 'janus-protocol', { headers });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    });
    const janus = new LightJanusSocket(socket, peer);
    janus.listen();
    janus.sessionId = (await janus.ask({ janus: 'create' })).data?.id;
    janus.keepAlive = setInterval(() => janus.send({ janus: 'keepalive', session_id: janus.sessionId }), KEEPALIVE_MS);
    janus.handleId = (await janus.ask({ janus: 'attach', session_id: janus.sessionId, plugin })).data?.id;
    return janus;
  }

  /** A plugin request on the handle: resolves with its event (Janus' ack before it is skipped). */
  message(body: Record<string, unknown>, jsep?: { type: string; sdp: string }) {
    return this.ask({
      janus: 'message',
      session_id: this.sessionId,
      handle_id: this.handleId,
      body,
      ...(jsep && { jsep }),
    });
  }

  close() {
    clearInterval(this.keepAlive);
    this.socket.close();
  }

  private send(message: Record<string, unknown>) {
    const transaction = `t${++this.transactions}`;
    this.socket.send(JSON.stringify({ ...message, transaction }));
    return transaction;
  }

  private ask(message: Record<string, unknown>) {
    return new Promise<JanusReply>((resolve, reject) => {
      const transaction = this.send(message);
      const timer = setTimeout(() => reject(new Error(`no answer to ${String(message.janus)}`)), ANSWER_TIMEOUT_MS);
      this.waiting.set(transaction, (reply) => {
        clearTimeout(timer);
        if (reply.janus === 'error') reject(new Error(reply.error?.reason ?? 'janus error'));
        else resolve(reply);
      });
    });
  }

  private listen() {
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
    this.peer.onIceCandidate.subscribe((candidate) => {
      if (this.sessionId === undefined || this.handleId === undefined) return;
      this.send({
        janus: 'trickle',
        session_id: this.sessionId,
        handle_id: this.handleId,
        candidate: candidate ? candidate.toJSON() : { completed: true },
      });
    });
  }
}
