import { z } from 'zod';

/**
 * The Janus wire format (its WebSocket API, `janus-protocol`), one schema per message: what a client
 * (the server's own client, or a browser through our proxies) sends, what Janus answers, and the
 * VideoRoom and Streaming plugins' data inside those answers. Every place that reads or checks a
 * Janus message uses these; builders for the requests are in `janus-messages.ts`, which has no zod
 * so that the channel page's early watch can use them (ADR 028).
 *
 * Requests strip keys they do not name (a browser's own `apisecret` or `token` never reaches Janus);
 * answers keep only what is read of them.
 */

/** The ids Janus gives sessions, handles and feeds (random positive integers). */
export const JanusIdSchema = z.number().int().positive();
/** A request's transaction, which Janus repeats in its answers. Browsers choose it: it is bounded. */
export const JanusTransactionSchema = z.string().min(1).max(64);

/** An SDP offer or answer as a browser sends it (bounded); Janus' own are read unbounded. */
export const JanusJsepSchema = z.object({
  type: z.enum(['offer', 'answer']),
  sdp: z.string().max(200_000),
  e2ee: z.boolean().optional(),
});
const JanusOwnJsepSchema = JanusJsepSchema.extend({ sdp: z.string() });

export const JANUS_PLUGINS = { videoroom: 'janus.plugin.videoroom', streaming: 'janus.plugin.streaming' } as const;

// ---- Requests: what a client sends ----

const inSession = { transaction: JanusTransactionSchema, session_id: JanusIdSchema };
const onHandle = { ...inSession, handle_id: JanusIdSchema };

export const JanusCreateSchema = z.object({ janus: z.literal('create'), transaction: JanusTransactionSchema });
/** Takes a session back over a new connection, after the old one dropped (within Janus' reclaim time). */
export const JanusClaimSchema = z.object({ janus: z.literal('claim'), ...inSession });
export const JanusAttachSchema = z.object({
  janus: z.literal('attach'),
  ...inSession,
  plugin: z.string().max(100),
  opaque_id: z.string().max(100).optional(),
});
/** A request to the handle's plugin (`body`), with an SDP offer or answer when it negotiates media. */
export const JanusMessageSchema = z.object({
  janus: z.literal('message'),
  ...onHandle,
  body: z.record(z.string(), z.unknown()),
  jsep: JanusJsepSchema.optional(),
});
export const JanusTrickleSchema = z.object({
  janus: z.literal('trickle'),
  ...onHandle,
  candidate: z.unknown().optional(),
  candidates: z.array(z.unknown()).max(100).optional(),
});
export const JanusKeepaliveSchema = z.object({ janus: z.literal('keepalive'), ...inSession });
export const JanusDetachSchema = z.object({ janus: z.literal('detach'), ...onHandle });
export const JanusHangupSchema = z.object({ janus: z.literal('hangup'), ...onHandle });
export const JanusDestroySchema = z.object({ janus: z.literal('destroy'), ...inSession });

/** The upkeep of a session and its handles, the same whatever the plugin. */
export const JANUS_UPKEEP_SCHEMAS = [
  JanusTrickleSchema,
  JanusKeepaliveSchema,
  JanusDetachSchema,
  JanusHangupSchema,
  JanusDestroySchema,
] as const;

export const JanusRequestSchema = z.discriminatedUnion('janus', [
  JanusCreateSchema,
  JanusClaimSchema,
  JanusAttachSchema,
  JanusMessageSchema,
  ...JANUS_UPKEEP_SCHEMAS,
]);
export type JanusRequest = z.infer<typeof JanusRequestSchema>;
export type JanusCreate = z.infer<typeof JanusCreateSchema>;
export type JanusAttach = z.infer<typeof JanusAttachSchema>;
export type JanusMessage = z.infer<typeof JanusMessageSchema>;
export type JanusTrickle = z.infer<typeof JanusTrickleSchema>;
export type JanusKeepalive = z.infer<typeof JanusKeepaliveSchema>;
export type JanusDestroy = z.infer<typeof JanusDestroySchema>;

// ---- Answers and events: what Janus sends ----

const JanusPluginDataSchema = z.object({ plugin: z.string().optional(), data: z.record(z.string(), z.unknown()) });
/** Where an event comes from: the session, and the handle (`sender`). */
const fromHandle = { session_id: z.number(), sender: z.number() };

/** The answer to `create` and `attach` (`data.id`: the new session or handle) and to synchronous plugin requests. */
export const JanusSuccessSchema = z.object({
  janus: z.literal('success'),
  transaction: z.string(),
  session_id: z.number().optional(),
  sender: z.number().optional(),
  data: z.object({ id: z.number() }).optional(),
  plugindata: JanusPluginDataSchema.optional(),
});
export const JanusErrorSchema = z.object({
  janus: z.literal('error'),
  transaction: z.string().optional(),
  session_id: z.number().optional(),
  error: z.object({ code: z.number(), reason: z.string() }),
});
/** Janus took an asynchronous request: its answer (an `event` with the same transaction) follows. */
export const JanusAckSchema = z.object({
  janus: z.literal('ack'),
  transaction: z.string(),
  session_id: z.number().optional(),
});
/** A plugin's answer to an asynchronous request (with its transaction), or news of its own. */
export const JanusEventSchema = z.object({
  janus: z.literal('event'),
  transaction: z.string().optional(),
  session_id: z.number().optional(),
  sender: z.number().optional(),
  plugindata: JanusPluginDataSchema.optional(),
  jsep: JanusOwnJsepSchema.optional(),
});
export const JanusCandidateSchema = z.object({
  candidate: z.string().optional(),
  sdpMid: z.string().optional(),
  sdpMLineIndex: z.number().optional(),
  /** The end of the candidates, told with no candidate at all. */
  completed: z.boolean().optional(),
});
export const JanusTrickleEventSchema = z.object({
  janus: z.literal('trickle'),
  ...fromHandle,
  candidate: JanusCandidateSchema,
});
export const JanusWebrtcUpSchema = z.object({ janus: z.literal('webrtcup'), ...fromHandle });
export const JanusHangupEventSchema = z.object({
  janus: z.literal('hangup'),
  ...fromHandle,
  reason: z.string().optional(),
});
export const JanusDetachedSchema = z.object({ janus: z.literal('detached'), ...fromHandle });
export const JanusMediaSchema = z.object({
  janus: z.literal('media'),
  ...fromHandle,
  type: z.string().optional(),
  mid: z.string().optional(),
  receiving: z.boolean(),
});
export const JanusSlowlinkSchema = z.object({
  janus: z.literal('slowlink'),
  ...fromHandle,
  mid: z.string().optional(),
  uplink: z.boolean(),
  lost: z.number().optional(),
});
/** A session Janus dropped for lack of keep-alives. */
export const JanusTimeoutSchema = z.object({ janus: z.literal('timeout'), session_id: z.number() });

export const JanusReplySchema = z.discriminatedUnion('janus', [
  JanusSuccessSchema,
  JanusErrorSchema,
  JanusAckSchema,
  JanusEventSchema,
  JanusTrickleEventSchema,
  JanusWebrtcUpSchema,
  JanusHangupEventSchema,
  JanusDetachedSchema,
  JanusMediaSchema,
  JanusSlowlinkSchema,
  JanusTimeoutSchema,
]);
export type JanusReply = z.infer<typeof JanusReplySchema>;
export type JanusEvent = z.infer<typeof JanusEventSchema>;
export type JanusCandidate = z.infer<typeof JanusCandidateSchema>;

// ---- Plugin data ----

/** A plugin's refusal, in the data of a `success` or an `event`. */
export const JanusPluginErrorSchema = z.object({ error_code: z.number(), error: z.string() });

export const VideoRoomCreatedSchema = z.object({ videoroom: z.literal('created'), room: z.number() });
export const VideoRoomDestroyedSchema = z.object({ videoroom: z.literal('destroyed') });
export const VideoRoomExistsSchema = z.object({ videoroom: z.literal('success'), exists: z.boolean() });
export const VideoRoomSuccessSchema = z.object({ videoroom: z.literal('success') });
export const VideoRoomParticipantsSchema = z.object({
  videoroom: z.literal('participants'),
  participants: z.array(z.object({ id: z.number(), display: z.string().optional(), publisher: z.boolean() })),
});
export type VideoRoomParticipant = z.infer<typeof VideoRoomParticipantsSchema>['participants'][number];
export const VideoRoomForwardSchema = z.object({
  videoroom: z.literal('rtp_forward'),
  forwarders: z.array(z.object({ stream_id: z.number(), mid: z.string().optional(), port: z.number() })).optional(),
});
export const VideoRoomForwardStoppedSchema = z.object({ videoroom: z.literal('stop_rtp_forward') });
/** The answer to a publisher's join: its feed id and the feeds already in the room. */
export const VideoRoomJoinedSchema = z.object({
  videoroom: z.literal('joined'),
  id: z.number(),
  // A list we cannot read is no list: the joiner then subscribes when the page reads it itself.
  publishers: z.array(z.object({ id: JanusIdSchema, display: z.string().optional() })).catch([]),
});
export type VideoRoomJoined = z.infer<typeof VideoRoomJoinedSchema>;

export const StreamingCreatedSchema = z.object({
  streaming: z.literal('created'),
  stream: z.object({
    id: z.number(),
    host: z.string().optional(),
    ports: z.array(z.object({ type: z.string(), mid: z.string(), port: z.number() })),
  }),
});
export const StreamingInfoSchema = z.object({
  streaming: z.literal('info'),
  info: z.object({ id: z.number(), viewers: z.number().optional() }),
});
export const StreamingDestroyedSchema = z.object({ streaming: z.literal('destroyed') });
