import { feedDisplay, parseFeedDisplay, type FeedKind } from '@meetcast/contracts';
import { z } from 'zod';

/**
 * What a browser may say to Janus through our proxy. Everything is checked against these schemas;
 * room number, pin and the publisher's display are filled in by the server, and no request that
 * manages rooms (create, destroy, edit, kick, moderate, rtp_forward, recording...) gets through.
 */
export const SessionId = z.number().int().positive();
export const Transaction = z.string().min(1).max(64);
const Jsep = z.object({
  type: z.enum(['offer', 'answer']),
  sdp: z.string().max(200_000),
  e2ee: z.boolean().optional(),
});

/** Keys a browser may never set itself in a VideoRoom body. */
const RESERVED_KEYS = [
  'room',
  'pin',
  'secret',
  'admin_key',
  'token',
  'display',
  'id',
  'record',
  'filename',
  'rec_dir',
  'permanent',
  'private_id_forced',
  'grant',
] as const;

const LooseBody = z.record(z.string(), z.unknown());
const StreamRef = z.object({ feed: z.number().int().positive(), mid: z.string().max(16).optional() }).loose();

const JoinPublisher = z.object({
  request: z.literal('join'),
  ptype: z.literal('publisher'),
  /** The kind of feed this handle publishes; becomes `participantId:kind` in Janus. */
  display: z.enum(['camera', 'screen']).default('camera'),
  /**
   * The page's subscriber handle in the same session: once Janus answers `joined`, the proxy subscribes
   * it to the feeds already there, as the page would on reading that answer (ADR 016).
   */
  subscriber_handle: z.number().int().positive().optional(),
  room: z.unknown().optional(),
  pin: z.unknown().optional(),
});
const JoinSubscriber = z
  .object({
    request: z.literal('join'),
    ptype: z.literal('subscriber'),
    streams: z.array(StreamRef).max(200).optional(),
    feed: z.number().int().positive().optional(),
    use_msid: z.boolean().optional(),
    autoupdate: z.boolean().optional(),
    private_id: z.number().int().optional(),
  })
  .loose();

const ALLOWED_REQUESTS = new Set([
  'configure',
  'publish',
  'unpublish',
  'start',
  'pause',
  'switch',
  'update',
  'subscribe',
  'unsubscribe',
  'leave',
  'listparticipants',
]);

/** The session and handle upkeep every browser connection to Janus may send, whatever its plugin. */
export const JANUS_SESSION_MESSAGES = [
  z.object({
    janus: z.literal('trickle'),
    transaction: Transaction,
    session_id: SessionId,
    handle_id: SessionId,
    candidate: z.unknown().optional(),
    candidates: z.array(z.unknown()).max(100).optional(),
  }),
  z.object({ janus: z.literal('keepalive'), transaction: Transaction, session_id: SessionId }),
  z.object({ janus: z.literal('detach'), transaction: Transaction, session_id: SessionId, handle_id: SessionId }),
  z.object({ janus: z.literal('hangup'), transaction: Transaction, session_id: SessionId, handle_id: SessionId }),
  z.object({ janus: z.literal('destroy'), transaction: Transaction, session_id: SessionId }),
] as const;

export const JanusClientMessageSchema = z.discriminatedUnion('janus', [
  z.object({ janus: z.literal('create'), transaction: Transaction }),
  z.object({ janus: z.literal('claim'), transaction: Transaction, session_id: SessionId }),
  z.object({
    janus: z.literal('attach'),
    transaction: Transaction,
    session_id: SessionId,
    plugin: z.literal('janus.plugin.videoroom'),
    opaque_id: z.string().max(100).optional(),
  }),
  z.object({
    janus: z.literal('message'),
    transaction: Transaction,
    session_id: SessionId,
    handle_id: SessionId,
    body: LooseBody,
    jsep: Jsep.optional(),
  }),
  ...JANUS_SESSION_MESSAGES,
]);
export type JanusClientMessage = z.infer<typeof JanusClientMessageSchema>;

export interface FilterContext {
  room: number;
  pin: string;
  participantId: string;
  apiSecret: string | undefined;
  /** Sessions this participant created (or may claim back). */
  sessions: ReadonlySet<number>;
}

export type FilterResult =
  | { kind: 'forward'; message: Record<string, unknown>; publishes?: FeedKind; subscribeWith?: number }
  | { kind: 'reject'; transaction: string | undefined; reason: string };

type Refusal = Extract<FilterResult, { kind: 'reject' }>;

function rejectWith(raw: unknown, reason: string): Refusal {
  const transaction =
    typeof raw === 'object' && raw !== null && typeof (raw as { transaction?: unknown }).transaction === 'string'
      ? String((raw as { transaction: string }).transaction).slice(0, 64)
      : undefined;
  return { kind: 'reject', transaction, reason };
}

function withoutReserved(body: Record<string, unknown>) {
  const copy = { ...body };
  for (const key of RESERVED_KEYS) delete copy[key];
  return copy;
}

/** A browser message read against everything any connection may send, or why it is refused. */
function parseClientMessage(text: string): { kind: 'parsed'; raw: unknown; message: JanusClientMessage } | Refusal {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return rejectWith(undefined, 'invalid_json');
  }
  const parsed = JanusClientMessageSchema.safeParse(raw);
  if (!parsed.success) return rejectWith(raw, 'not_allowed');
  return { kind: 'parsed', raw, message: parsed.data };
}

/** Checks one browser message and rewrites it for Janus, or says why it is refused. */
export function filterClientMessage(text: string, context: FilterContext): FilterResult {
  const parsed = parseClientMessage(text);
  if (parsed.kind === 'reject') return parsed;
  const { raw, message } = parsed;
  const secret = context.apiSecret ? { apisecret: context.apiSecret } : {};
  if (message.janus === 'create') return { kind: 'forward', message: { ...message, ...secret } };
  if (!context.sessions.has(message.session_id)) return rejectWith(raw, 'unknown_session');
  if (message.janus !== 'message') return { kind: 'forward', message: { ...message, ...secret } };

  const request = message.body.request;
  if (request === 'join') {
    const publisher = JoinPublisher.safeParse(message.body);
    if (publisher.success) {
      const body = {
        request: 'join',
        ptype: 'publisher',
        room: context.room,
        pin: context.pin,
        display: feedDisplay(context.participantId, publisher.data.display),
      };
      return {
        kind: 'forward',
        message: { ...message, body, ...secret },
        publishes: publisher.data.display,
        subscribeWith: publisher.data.subscriber_handle,
      };
    }
    const subscriber = JoinSubscriber.safeParse(message.body);
    if (!subscriber.success) return rejectWith(raw, 'invalid_join');
    const body = { ...withoutReserved(subscriber.data), room: context.room, pin: context.pin };
    return { kind: 'forward', message: { ...message, body, ...secret } };
  }
  if (typeof request !== 'string' || !ALLOWED_REQUESTS.has(request)) return rejectWith(raw, 'not_allowed');
  const body =
    request === 'listparticipants' ? { request, room: context.room } : { ...withoutReserved(message.body), request };
  return { kind: 'forward', message: { ...message, body, ...secret } };
}

/** What a connection opened on the pre-join screen (ADR 016) may send before a grant admits it. */
export function filterBeforeAdmission(
  text: string,
  context: { apiSecret: string | undefined; sessions: ReadonlySet<number> },
): FilterResult {
  const parsed = parseClientMessage(text);
  if (parsed.kind === 'reject') return parsed;
  const { raw, message } = parsed;
  // Plugin requests and claims wait for the grant: nobody is in the room yet.
  if (message.janus === 'message' || message.janus === 'claim') return rejectWith(raw, 'not_admitted');
  if (message.janus !== 'create' && !context.sessions.has(message.session_id))
    return rejectWith(raw, 'unknown_session');
  return { kind: 'forward', message: { ...message, ...(context.apiSecret ? { apisecret: context.apiSecret } : {}) } };
}

const PublisherJoinSchema = z.object({
  janus: z.literal('message'),
  session_id: SessionId,
  handle_id: z.number().int().positive(),
  transaction: Transaction,
  body: z.object({
    request: z.literal('join'),
    ptype: z.literal('publisher'),
    grant: z.string().min(1).max(200).optional(),
  }),
});

/** A pre-join connection's publisher join (ADR 016): with a grant, it admits the connection. */
export interface PublisherJoin {
  sessionId: number;
  handleId: number;
  transaction: string;
  grant: string | undefined;
}

export function publisherJoinOf(text: string): PublisherJoin | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = PublisherJoinSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { session_id: sessionId, handle_id: handleId, transaction, body } = parsed.data;
  return { sessionId, handleId, transaction, grant: body.grant };
}

/** What Janus answers a plugin request it handles later: janus.js reports it as sent. */
export function janusAck(join: PublisherJoin) {
  return JSON.stringify({ janus: 'ack', session_id: join.sessionId, transaction: join.transaction });
}

/** A Janus-shaped error so that janus.js reports the refusal to its caller. */
export function janusError(transaction: string | undefined, reason: string) {
  return JSON.stringify({ janus: 'error', transaction, error: { code: 403, reason } });
}

const JoinedPublishersSchema = z.array(z.object({ id: SessionId, display: z.string().optional() })).catch([]);

/**
 * The subscriber join a publisher join asked for with `subscriber_handle`, from Janus' `joined`
 * answer: every feed it lists but the joiner's own, the request the page would send on reading it.
 * Nothing when nobody else publishes. It is filtered like any message of the page.
 */
export function subscriberJoinFor(
  join: { sessionId: number; handleId: number; transaction: string },
  publishers: unknown,
  participantId: string,
): { text: string; transaction: string } | undefined {
  const feeds = JoinedPublishersSchema.parse(publishers).filter((publisher) => {
    const owner = parseFeedDisplay(publisher.display);
    return owner !== undefined && owner.participantId !== participantId;
  });
  if (feeds.length === 0) return undefined;
  const transaction = `${join.transaction}:subscribe`.slice(-64);
  const text = JSON.stringify({
    janus: 'message',
    session_id: join.sessionId,
    handle_id: join.handleId,
    transaction,
    body: { request: 'join', ptype: 'subscriber', streams: feeds.map(({ id }) => ({ feed: id })), use_msid: true },
  });
  return { text, transaction };
}
