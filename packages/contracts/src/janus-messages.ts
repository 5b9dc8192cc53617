import type {
  JanusAttach,
  JanusCreate,
  JanusDestroy,
  JanusKeepalive,
  JanusMessage,
  JanusTrickle,
  JANUS_PLUGINS,
} from './janus.js';

/**
 * Builders for the Janus requests (their shapes are the schemas' in `janus.ts`), without the
 * transaction, which each sender adds as it keeps its own count. A module without zod, exported on
 * its own (`@meetcast/contracts/janus-messages`): the channel page's early watch speaks Janus before
 * the schemas are loaded (ADR 011, ADR 028).
 */
type Unsent<T> = Omit<T, 'transaction'>;
type JanusPlugin = (typeof JANUS_PLUGINS)[keyof typeof JANUS_PLUGINS];

export const janusRequest = {
  create: (): Unsent<JanusCreate> => ({ janus: 'create' }),
  attach: (sessionId: number, plugin: JanusPlugin): Unsent<JanusAttach> => ({
    janus: 'attach',
    session_id: sessionId,
    plugin,
  }),
  message: (
    sessionId: number,
    handleId: number,
    body: JanusMessage['body'],
    jsep?: JanusMessage['jsep'],
  ): Unsent<JanusMessage> => ({
    janus: 'message',
    session_id: sessionId,
    handle_id: handleId,
    body,
    ...(jsep ? { jsep } : {}),
  }),
  trickle: (sessionId: number, handleId: number, candidate: unknown): Unsent<JanusTrickle> => ({
    janus: 'trickle',
    session_id: sessionId,
    handle_id: handleId,
    candidate,
  }),
  keepalive: (sessionId: number): Unsent<JanusKeepalive> => ({ janus: 'keepalive', session_id: sessionId }),
  destroy: (sessionId: number): Unsent<JanusDestroy> => ({ janus: 'destroy', session_id: sessionId }),
};

/** What Janus answers a plugin request it handles later; our proxy says it for a join it already sent. */
export function janusAck(sessionId: number, transaction: string) {
  return JSON.stringify({ janus: 'ack', session_id: sessionId, transaction });
}

/** A Janus-shaped refusal (code 403), so that a Janus client reports it to its caller. */
export function janusError(transaction: string | undefined, reason: string) {
  return JSON.stringify({ janus: 'error', transaction, error: { code: 403, reason } });
}
