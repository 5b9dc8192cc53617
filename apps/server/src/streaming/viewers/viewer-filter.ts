import {
  JANUS_PLUGINS,
  JANUS_UPKEEP_SCHEMAS,
  JanusAttachSchema,
  JanusCreateSchema,
  JanusMessageSchema,
} from '@meetcast/contracts';
import { z } from 'zod';
import { readJson, withApiSecret } from '../../media/janus/protocol.js';

/**
 * What a viewer's browser may say to Janus through /janus-watch (ADR 011): open a session, attach
 * the Streaming plugin, `watch` the one mountpoint its grant names and `start` it with its answer.
 * The mountpoint id, its pin and the API secret are filled in by the server; every other request
 * (list, info, create, destroy, switch, configure...) is refused.
 */
const AnswerJsep = z.object({ type: z.literal('answer'), sdp: z.string().max(100_000) });

const ViewerMessageSchema = z.discriminatedUnion('janus', [
  JanusCreateSchema,
  JanusAttachSchema.extend({ plugin: z.literal(JANUS_PLUGINS.streaming) }),
  JanusMessageSchema.extend({
    body: z.object({ request: z.enum(['watch', 'start']) }).loose(),
    /** Only `start` carries one: the viewer's answer to the mountpoint's offer. */
    jsep: AnswerJsep.optional(),
  }),
  ...JANUS_UPKEEP_SCHEMAS,
]);

/**
 * Asks the viewer's browser to show each frame as soon as it is decoded (the playout-delay RTP
 * extension, negotiated by the mountpoint): a live broadcast plays at its edge rather than behind a
 * smoothing buffer (glass-to-glass latency, docs/benchmarks/channel-player.md).
 */
const LIVE_EDGE_PLAYOUT = { min_delay: 0, max_delay: 0 };

export interface ViewerFilterContext {
  mountpoint: number;
  pin: string;
  apiSecret: string | undefined;
  /** Sessions this connection created. */
  sessions: ReadonlySet<number>;
}

export type ViewerFilterResult =
  | { kind: 'forward'; message: Record<string, unknown> }
  | { kind: 'reject'; transaction: string | undefined; reason: string };

function transactionOf(raw: unknown): string | undefined {
  const transaction = (raw as { transaction?: unknown } | null)?.transaction;
  return typeof transaction === 'string' ? transaction.slice(0, 64) : undefined;
}

/** Checks one viewer message and rewrites it for Janus, or says why it is refused. */
export function filterViewerMessage(text: string, context: ViewerFilterContext): ViewerFilterResult {
  const json = readJson(text);
  if (!json) return { kind: 'reject', transaction: undefined, reason: 'invalid_json' };
  const raw = json.value;
  const parsed = ViewerMessageSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'reject', transaction: transactionOf(raw), reason: 'not_allowed' };
  const message = parsed.data;
  const forward = (rewritten: Record<string, unknown>) => withApiSecret(rewritten, context.apiSecret);
  if (message.janus !== 'create' && !context.sessions.has(message.session_id)) {
    return { kind: 'reject', transaction: message.transaction, reason: 'unknown_session' };
  }
  if (message.janus !== 'message') return { kind: 'forward', message: forward(message) };
  if (message.body.request === 'watch') {
    const { jsep: _ignored, ...watch } = message;
    const body = { request: 'watch', id: context.mountpoint, pin: context.pin, ...LIVE_EDGE_PLAYOUT };
    return { kind: 'forward', message: forward({ ...watch, body }) };
  }
  if (!message.jsep) return { kind: 'reject', transaction: message.transaction, reason: 'answer_missing' };
  return { kind: 'forward', message: forward({ ...message, body: { request: 'start' } }) };
}
