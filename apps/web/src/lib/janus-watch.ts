import type { BroadcastViewer, JanusCandidate, JanusEvent, JanusReply } from '@meetcast/contracts';
import { janusRequest } from '@meetcast/contracts/janus-messages';
import { WATCH_STARTED_BY_PROXY_PARAM } from '@meetcast/contracts/viewer-watch';

/** No picture within this time: WebRTC is taken as blocked (UDP filtered) and HLS is used instead. */
const CONNECT_TIMEOUT_MS = 8000;
const KEEPALIVE_MS = 25_000;

/**
 * What the page reads of a Janus message relayed by our viewer proxy: fields of the shared schemas
 * (`JanusReplySchema`, @meetcast/contracts), each kept only when well-typed.
 */
export interface WatchReply {
  janus: JanusReply['janus'] | (string & {});
  transaction?: string;
  session_id?: number;
  /** The handle an event comes from. */
  sender?: number;
  /** A plugin's refusal (`plugindata.data.error`). */
  pluginError?: string;
  jsep?: Pick<NonNullable<JanusEvent['jsep']>, 'type' | 'sdp'>;
  candidate?: JanusCandidate & { completed: boolean };
  error?: Extract<JanusReply, { janus: 'error' }>['error'];
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;
const stringOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

/**
 * Reads a message from the proxy, keeping only well-typed fields. Checked by hand, not with the
 * shared schemas it mirrors: this module is part of the early watch, which must start before the
 * app's ~180 kB of schemas and zod are evaluated, and zod alone would more than triple the early
 * watch's 10 kB budget (ADR 011, ADR 028). A test holds it to the schemas.
 */
export function readJanusReply(data: unknown): WatchReply | undefined {
  let message: unknown;
  try {
    message = JSON.parse(String(data));
  } catch {
    return undefined;
  }
  if (!isObject(message) || typeof message.janus !== 'string') return undefined;
  const { jsep, candidate, error, plugindata } = message;
  const pluginData = isObject(plugindata) && isObject(plugindata.data) ? plugindata.data : undefined;
  return {
    janus: message.janus,
    transaction: stringOf(message.transaction),
    session_id: numberOf(message.session_id),
    sender: numberOf(message.sender),
    pluginError: stringOf(pluginData?.error),
    jsep:
      isObject(jsep) && (jsep.type === 'offer' || jsep.type === 'answer') && typeof jsep.sdp === 'string'
        ? { type: jsep.type, sdp: jsep.sdp }
        : undefined,
    candidate: isObject(candidate)
      ? {
          candidate: stringOf(candidate.candidate),
          sdpMid: stringOf(candidate.sdpMid),
          sdpMLineIndex: numberOf(candidate.sdpMLineIndex),
          completed: candidate.completed === true,
        }
      : undefined,
    error:
      isObject(error) && typeof error.code === 'number' && typeof error.reason === 'string'
        ? { code: error.code, reason: error.reason }
        : undefined,
  };
}

export interface WebRtcWatch {
  peer: RTCPeerConnection;
  close(): void;
}

/**
 * Watches a broadcast's Janus Streaming mountpoint through our viewer proxy (ADR 011). The proxy
 * opens the session, attaches the Streaming handle and asks to `watch` by itself (`start=1`), so
 * nothing here waits on this page's scripts until the offer: the page answers it with `start`.
 * Resolves once the first video track arrives; rejects when that does not happen in time.
 */
export function watchOverWebRtc(
  access: NonNullable<BroadcastViewer['webrtc']>,
  onStream: (stream: MediaStream) => void,
  onLost: () => void,
): Promise<WebRtcWatch> {
  const origin = window.location.origin.replace(/^http/, 'ws');
  const query = `grant=${encodeURIComponent(access.grant)}&${WATCH_STARTED_BY_PROXY_PARAM}=1`;
  const socket = new WebSocket(`${origin}${access.url}?${query}`, 'janus-protocol');
  const peer = new RTCPeerConnection({ iceServers: access.ice_servers });
  const stream = new MediaStream();
  const waiting = new Map<string, (reply: WatchReply) => void>();
  let sessionId: number | undefined;
  let handleId: number | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let isClosed = false;
  let transactions = 0;

  const close = () => {
    if (isClosed) return;
    isClosed = true;
    clearInterval(keepAlive);
    peer.close();
    socket.close();
  };
  const send = (message: object) => {
    const transaction = `t${++transactions}`;
    socket.send(JSON.stringify({ ...message, transaction }));
    return transaction;
  };
  /** The reply to a request, or for `message` the plugin's event that follows its ack. */
  const ask = (message: object) =>
    new Promise<WatchReply>((resolve, reject) => {
      const transaction = send(message);
      waiting.set(transaction, (reply) =>
        reply.janus === 'error' ? reject(new Error(reply.error?.reason)) : resolve(reply),
      );
    });

  socket.addEventListener('message', (event) => {
    const message = readJanusReply(event.data);
    if (!message) return;
    if (message.janus === 'trickle' && message.candidate) {
      // The end of the candidates (`completed`) is told with no candidate at all.
      const { completed, ...candidate } = message.candidate;
      void peer.addIceCandidate(completed || !candidate.candidate ? undefined : candidate).catch(() => undefined);
      return;
    }
    if (message.janus === 'hangup' || message.janus === 'detached') {
      if (!isClosed) onLost();
      return;
    }
    if (message.janus === 'ack') return;
    if (handleId === undefined) {
      // Until the offer, everything comes from the watch the proxy started: the offer, or its refusal.
      const { jsep, session_id: session, sender } = message;
      if (jsep?.type === 'offer' && session !== undefined && sender !== undefined) {
        answerOffer(session, sender, jsep);
      } else if (message.janus === 'error' || message.pluginError) {
        fail(new Error(message.error?.reason ?? message.pluginError ?? 'watch_refused'));
      }
      return;
    }
    if (!message.transaction) return;
    const resolve = waiting.get(message.transaction);
    waiting.delete(message.transaction);
    resolve?.(message);
  });

  peer.addEventListener('track', (event) => {
    stream.addTrack(event.track);
    if (event.track.kind === 'video') onStream(stream);
  });
  peer.addEventListener('icecandidate', (event) => {
    if (sessionId === undefined || handleId === undefined) return;
    send(janusRequest.trickle(sessionId, handleId, event.candidate ? event.candidate.toJSON() : { completed: true }));
  });
  peer.addEventListener('connectionstatechange', () => {
    if (peer.connectionState === 'failed' && !isClosed) onLost();
  });

  let fail: (error: unknown) => void = () => undefined;
  const answerOffer = (session: number, handle: number, offer: RTCSessionDescriptionInit) => {
    sessionId = session;
    handleId = handle;
    keepAlive = setInterval(() => send(janusRequest.keepalive(session)), KEEPALIVE_MS);
    void (async () => {
      await peer.setRemoteDescription(offer);
      const answer = await peer.createAnswer();
      await peer.setLocalDescription(answer);
      await ask(janusRequest.message(session, handle, { request: 'start' }, { type: 'answer', sdp: answer.sdp ?? '' }));
    })().catch(fail);
  };

  const connected = new Promise<WebRtcWatch>((resolve, reject) => {
    const timer = setTimeout(() => {
      close();
      reject(new Error('webrtc_timeout'));
    }, CONNECT_TIMEOUT_MS);
    fail = (error: unknown) => {
      clearTimeout(timer);
      close();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    socket.addEventListener('error', () => fail(new Error('proxy_unreachable')));
    peer.addEventListener('track', (event) => {
      if (event.track.kind !== 'video') return;
      clearTimeout(timer);
      resolve({ peer, close });
    });
  });
  return connected;
}
