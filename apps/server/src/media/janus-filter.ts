import {
  feedDisplay,
  JANUS_PLUGINS,
  JANUS_UPKEEP_SCHEMAS,
  JanusAttachSchema,
  JanusClaimSchema,
  JanusCreateSchema,
  JanusIdSchema,
  JanusMessageSchema,
  janusRequest,
  parseFeedDisplay,
  type FeedKind,
  type VideoRoomJoined,
} from '@meetcast/contracts';
import { z } from 'zod';
import { readJson, withApiSecret } from './janus/protocol.js';

/**
 * What a browser may say to Janus through our proxy. Everything is checked against these schemas;
 * room number, pin and the publisher's display are filled in by the server, and no request that
 * manages rooms (create, destroy, edit, kick, moderate, rtp_forward, recording...) gets through.
 */
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

const StreamRef = z.object({ feed: JanusIdSchema, mid: z.string().max(16).optional() }).loose();

const JoinPublisher = z.object({
  request: z.literal('join'),
  ptype: z.literal('publisher'),
  /** The kind of feed this handle publishes; becomes `participantId:kind` in Janus. */
  display: z.enum(['camera', 'screen']).default('camera'),
  /**
   * The page's subscriber handle in the same session: once Janus answers `joined`, the proxy subscribes
   * it to the feeds already there, as the page would on reading that answer (ADR 016).
   */
  subscriber_handle: JanusIdSchema.optional(),
  /** A pre-join connection's join carries the grant that admits it (ADR 016). */
  grant: z.string().min(1).max(200).optional(),
});
const JoinSubscriber = z
  .object({
    request: z.literal('join'),
    ptype: z.literal('subscriber'),
    streams: z.array(StreamRef).max(200).optional(),
    feed: JanusIdSchema.optional(),
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

export const JanusClientMessageSchema = z.discriminatedUnion('janus', [
  JanusCreateSchema,
  JanusClaimSchema,
  JanusAttachSchema.extend({ plugin: z.literal(JANUS_PLUGINS.videoroom) }),
  JanusMessageSchema,
  ...JANUS_UPKEEP_SCHEMAS,
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

export type Refusal = Extract<FilterResult, { kind: 'reject' }>;

/** A publisher's join, read from its body once: who publishes what, and a pre-join connection's grant. */
export interface PublisherJoin {
  sessionId: number;
  handleId: number;
  transaction: string;
  display: FeedKind;
  subscriberHandle: number | undefined;
  grant: string | undefined;
}

/** A browser message read once against everything any connection may send; a publisher's join named. */
export interface ClientMessage {
  kind: 'read';
  raw: unknown;
  message: JanusClientMessage;
  publisherJoin: PublisherJoin | undefined;
}

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

/** A browser message's text read as a Janus request, or why it is refused. */
export function readClientMessage(text: string): ClientMessage | Refusal {
  const json = readJson(text);
  return json ? checkClientMessage(json.value) : rejectWith(undefined, 'invalid_json');
}

function checkClientMessage(raw: unknown): ClientMessage | Refusal {
  const parsed = JanusClientMessageSchema.safeParse(raw);
  if (!parsed.success) return rejectWith(raw, 'not_allowed');
  const message = parsed.data;
  const join = message.janus === 'message' ? JoinPublisher.safeParse(message.body) : undefined;
  const publisherJoin =
    message.janus === 'message' && join?.success
      ? {
          sessionId: message.session_id,
          handleId: message.handle_id,
          transaction: message.transaction,
          display: join.data.display,
          subscriberHandle: join.data.subscriber_handle,
          grant: join.data.grant,
        }
      : undefined;
  return { kind: 'read', raw, message, publisherJoin };
}

/** Checks one browser message and rewrites it for Janus, or says why it is refused. */
export function filterClientMessage(read: ClientMessage | Refusal, context: FilterContext): FilterResult {
  if (read.kind === 'reject') return read;
  const { raw, message, publisherJoin } = read;
  const forward = (rewritten: Record<string, unknown>) => withApiSecret(rewritten, context.apiSecret);
  if (message.janus === 'create') return { kind: 'forward', message: forward(message) };
  if (!context.sessions.has(message.session_id)) return rejectWith(raw, 'unknown_session');
  if (message.janus !== 'message') return { kind: 'forward', message: forward(message) };

  const request = message.body.request;
  if (request === 'join') {
    if (publisherJoin) {
      const body = {
        request: 'join',
        ptype: 'publisher',
        room: context.room,
        pin: context.pin,
        display: feedDisplay(context.participantId, publisherJoin.display),
      };
      return {
        kind: 'forward',
        message: forward({ ...message, body }),
        publishes: publisherJoin.display,
        subscribeWith: publisherJoin.subscriberHandle,
      };
    }
    const subscriber = JoinSubscriber.safeParse(message.body);
    if (!subscriber.success) return rejectWith(raw, 'invalid_join');
    const body = { ...withoutReserved(subscriber.data), room: context.room, pin: context.pin };
    return { kind: 'forward', message: forward({ ...message, body }) };
  }
  if (typeof request !== 'string' || !ALLOWED_REQUESTS.has(request)) return rejectWith(raw, 'not_allowed');
  const body =
    request === 'listparticipants' ? { request, room: context.room } : { ...withoutReserved(message.body), request };
  return { kind: 'forward', message: forward({ ...message, body }) };
}

/** What a connection opened on the pre-join screen (ADR 016) may send before a grant admits it. */
export function filterBeforeAdmission(
  read: ClientMessage | Refusal,
  context: { apiSecret: string | undefined; sessions: ReadonlySet<number> },
): FilterResult {
  if (read.kind === 'reject') return read;
  const { raw, message } = read;
  // Plugin requests and claims wait for the grant: nobody is in the room yet.
  if (message.janus === 'message' || message.janus === 'claim') return rejectWith(raw, 'not_admitted');
  if (message.janus !== 'create' && !context.sessions.has(message.session_id))
    return rejectWith(raw, 'unknown_session');
  return { kind: 'forward', message: withApiSecret(message, context.apiSecret) };
}

/**
 * The subscriber join a publisher join asked for with `subscriber_handle`, from the data of Janus'
 * `joined` answer: every feed it lists but the joiner's own, the request the page would send on
 * reading it. Nothing when nobody else publishes. It is read and filtered like any message of the page.
 */
export function subscriberJoinFor(
  join: { sessionId: number; handleId: number; transaction: string },
  joined: VideoRoomJoined,
  participantId: string,
): { read: ClientMessage | Refusal; transaction: string } | undefined {
  const feeds = joined.publishers.filter((publisher) => {
    const owner = parseFeedDisplay(publisher.display);
    return owner !== undefined && owner.participantId !== participantId;
  });
  if (feeds.length === 0) return undefined;
  const transaction = `${join.transaction}:subscribe`.slice(-64);
  const body = { request: 'join', ptype: 'subscriber', streams: feeds.map(({ id }) => ({ feed: id })), use_msid: true };
  return {
    read: checkClientMessage({ ...janusRequest.message(join.sessionId, join.handleId, body), transaction }),
    transaction,
  };
}
