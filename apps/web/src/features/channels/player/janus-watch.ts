import { WATCH_STARTED_BY_PROXY_PARAM, type BroadcastViewer } from '@meetcast/contracts';
import { z } from 'zod';

/** No picture within this time: WebRTC is taken as blocked (UDP filtered) and HLS is used instead. */
const CONNECT_TIMEOUT_MS = 8000;
const KEEPALIVE_MS = 25_000;

const JanusReplySchema = z
  .object({
    janus: z.string(),
    transaction: z.string().optional(),
    session_id: z.number().optional(),
    /** The handle an event comes from. */
    sender: z.number().optional(),
    plugindata: z.object({ data: z.object({ error: z.string().optional() }).loose() }).optional(),
    jsep: z.object({ type: z.enum(['offer', 'answer']), sdp: z.string() }).optional(),
    candidate: z
      .object({ candidate: z.string().optional(), sdpMid: z.string().optional(), sdpMLineIndex: z.number().optional() })
      .loose()
      .optional(),
    error: z.object({ code: z.number(), reason: z.string() }).optional(),
  })
  .loose();
type JanusReply = z.infer<typeof JanusReplySchema>;

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
  const waiting = new Map<string, (reply: JanusReply) => void>();
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
  const send = (message: Record<string, unknown>) => {
    const transaction = `t${++transactions}`;
    socket.send(JSON.stringify({ ...message, transaction }));
    return transaction;
  };
  /** The reply to a request, or for `message` the plugin's event that follows its ack. */
  const ask = (message: Record<string, unknown>) =>
    new Promise<JanusReply>((resolve, reject) => {
      const transaction = send(message);
      waiting.set(transaction, (reply) =>
        reply.janus === 'error' ? reject(new Error(reply.error?.reason)) : resolve(reply),
      );
    });

  socket.addEventListener('message', (event) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(event.data));
    } catch {
      return;
    }
    const reply = JanusReplySchema.safeParse(parsed);
    if (!reply.success) return;
    const message = reply.data;
    if (message.janus === 'trickle' && message.candidate) {
      const candidate = message.candidate.candidate ? (message.candidate as RTCIceCandidateInit) : null;
      void peer.addIceCandidate(candidate ?? undefined).catch(() => undefined);
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
      } else if (message.janus === 'error' || message.plugindata?.data.error) {
        fail(new Error(message.error?.reason ?? message.plugindata?.data.error ?? 'watch_refused'));
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
    send({
      janus: 'trickle',
      session_id: sessionId,
      handle_id: handleId,
      candidate: event.candidate ? event.candidate.toJSON() : { completed: true },
    });
  });
  peer.addEventListener('connectionstatechange', () => {
    if (peer.connectionState === 'failed' && !isClosed) onLost();
  });

  let fail: (error: unknown) => void = () => undefined;
  const answerOffer = (session: number, handle: number, offer: RTCSessionDescriptionInit) => {
    sessionId = session;
    handleId = handle;
    keepAlive = setInterval(() => send({ janus: 'keepalive', session_id: session }), KEEPALIVE_MS);
    void (async () => {
      await peer.setRemoteDescription(offer);
      const answer = await peer.createAnswer();
      await peer.setLocalDescription(answer);
      await ask({
        janus: 'message',
        session_id: session,
        handle_id: handle,
        body: { request: 'start' },
        jsep: { type: 'answer', sdp: answer.sdp },
      });
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
