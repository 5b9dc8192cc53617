import { BrandKitSchema } from './brand-kit.js';
import { z } from 'zod';
import { nestedData } from './envelope.js';
import {
  EpochSecondsSchema,
  formInt,
  IdSchema,
  LanguageFieldSchema,
  optionalText,
  optionalUserText,
  text,
  TokenSchema,
} from './fields.js';
import { jsonInForm } from './form-values.js';
import { CommentCardSchema } from './platform-chat.js';

/** Streaming calls and shapes. Tokens and keys never leave the server. */

export const STREAM_PLATFORMS = ['youtube', 'twitch', 'rtmp'] as const;
export type StreamPlatform = (typeof STREAM_PLATFORMS)[number];
export const OAUTH_STREAM_PLATFORMS = ['youtube', 'twitch'] as const;
export type OAuthStreamPlatform = (typeof OAUTH_STREAM_PLATFORMS)[number];

export const CONNECTION_STATUSES = ['connected', 'expired', 'revoked'] as const;
export const RTMP_TEST_RESULTS = ['worked', 'failed'] as const;
export type RtmpTestResult = (typeof RTMP_TEST_RESULTS)[number];
export const BROADCAST_STATES = ['starting', 'live', 'ended', 'failed'] as const;
export type LiveBroadcastState = (typeof BROADCAST_STATES)[number];
export const DESTINATION_STATES = ['starting', 'live', 'reconnecting', 'failed', 'ended'] as const;
export type DestinationState = (typeof DESTINATION_STATES)[number];
export const YOUTUBE_PRIVACY = ['public', 'unlisted', 'private'] as const;
/**
 * How the broadcast picture arranges the meeting (ADR 039); the meeting room's own grid is not affected.
 * `auto`: a grid, or a shared screen alone on the stage while there is one.
 */
export const BROADCAST_LAYOUTS = ['auto', 'solo', 'side_by_side', 'grid', 'spotlight', 'screen_share'] as const;
export type BroadcastLayout = (typeof BROADCAST_LAYOUTS)[number];
/**
 * What the broadcast picture shows (ADR 042): `live` is the people (the default); the others are
 * full-frame holding screens with an optional message and countdown.
 */
export const BROADCAST_SCENES = ['live', 'starting_soon', 'be_right_back', 'ending'] as const;
export type BroadcastScene = (typeof BROADCAST_SCENES)[number];

/**
 * Query parameter of an HLS playlist request that only reads the playlist (the rewind window's length,
 * ADR 037): the server does not count it as an HLS viewer.
 */
export const WINDOW_PROBE = 'window';

export const STREAMING_LIMITS = {
  connectionName: 100,
  rtmpUrl: 500,
  streamKey: 300,
  title: 100,
  description: 5000,
  category: 100,
  destinations: 10,
  overlayText: 200,
  logoUrl: 500,
  sceneMessage: 200,
  /** How far ahead a scene's countdown may end. */
  sceneCountdownSeconds: 24 * 60 * 60,
} as const;

export const StreamConnectionSchema = z.object({
  id: z.number().int(),
  platform: z.enum(STREAM_PLATFORMS),
  name: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  created_at: z.number().int(),
  /** An RTMP destination's server address, without its key (which never leaves the server); else null. */
  rtmp_url: z.string().nullable(),
  /** The last test push (RTMP addresses only): when, whether it worked, and why not (a translated sentence). */
  last_test_at: z.number().int().nullable(),
  last_test_result: z.enum(RTMP_TEST_RESULTS).nullable(),
  last_test_reason: z.string().nullable(),
  /** When a broadcast last went live to it. */
  last_live_at: z.number().int().nullable(),
});
export type StreamConnection = z.infer<typeof StreamConnectionSchema>;

export const BroadcastDestinationSchema = z.object({
  connection_id: z.number().int(),
  platform: z.enum(STREAM_PLATFORMS),
  /** The connection's name, so the Live panel can label a destination without a second call. */
  name: z.string(),
  state: z.enum(DESTINATION_STATES),
  error: z.string().nullable(),
  bitrate_kbps: z.number().nullable(),
  fps: z.number().nullable(),
  /** YouTube's `healthStatus.status` (good, ok, bad, noData), when the platform reports one. */
  health: z.string().nullable(),
  /** Twitch's viewer count, when the platform reports one. */
  viewers: z.number().int().nullable(),
});
export type BroadcastDestination = z.infer<typeof BroadcastDestinationSchema>;

/** Which overlay image is on a broadcast: the kit's standard one, none, or a library overlay's id. */
export const OverlayImageChoiceSchema = z.union([z.enum(['kit', 'none']), z.number().int()]);
export type OverlayImageChoice = z.infer<typeof OverlayImageChoiceSchema>;

export const BroadcastOverlaySchema = z.object({
  logo_url: z.string().nullable(),
  banner: z.string().nullable(),
  ticker: z.string().nullable(),
  /** A viewer's message the host put on the stream (ADR 040), else null. */
  comment: CommentCardSchema.nullable(),
  layout: z.enum(BROADCAST_LAYOUTS),
  scene: z.enum(BROADCAST_SCENES),
  scene_message: z.string().nullable(),
  /** When the scene's countdown reaches zero (epoch seconds), else null. */
  scene_countdown_to: z.number().int().nullable(),
  /** The brand kit of the meeting host's channel (ADR 046), the defaults when there is none. */
  brand: BrandKitSchema,
  /**
   * The overlay image the host picked: `kit` (the kit's standard overlay, the default), `none`, or
   * the id of one of the kit's library overlays.
   */
  overlay_image: OverlayImageChoiceSchema.optional(),
  /** The overlay image on the stream now (what `overlay_image` comes to), else null. */
  overlay_image_url: z.string().nullable().optional(),
});
export type BroadcastOverlay = z.infer<typeof BroadcastOverlaySchema>;

export const LiveBroadcastSchema = z.object({
  id: z.number().int(),
  url_slug: z.string(),
  state: z.enum(BROADCAST_STATES),
  started_at: z.number().int().nullable(),
  ended_at: z.number().int().nullable(),
  destinations: z.array(BroadcastDestinationSchema),
  recording: z.object({ url: z.string(), duration: z.number() }).nullable(),
  /** Whether the caller may start, stop and change this broadcast (the meeting's host or a co-host). */
  can_manage: z.boolean(),
  watch_url: z.string(),
  /** Why a broadcast failed or runs below 720p30 (a translated sentence), else null. */
  notice: z.string().nullable(),
  /**
   * What the composer encodes (`1080p30`, `720p30`, `720p24`, `540p30`; ADR 050), or what the host
   * asked for until a composer has taken the broadcast; null when neither is known. Managers only.
   */
  quality: z.string().nullable(),
  overlay: BroadcastOverlaySchema,
  /**
   * The room participants on the broadcast (ADR 045); the others in the room are backstage. Shown to
   * its managers and to the room (a grant admitted to it), null to everyone else.
   */
  on_stage: z.array(z.string()).nullable(),
  /**
   * A rehearsal (ADR 047): running, previewed in the studio, seen by nobody else until "Go live"
   * (go-live.php). Sent to its managers and the room only.
   */
  rehearsal: z.boolean().optional(),
});
export type LiveBroadcast = z.infer<typeof LiveBroadcastSchema>;

const MeetIdSchema = text({ max: 100 });

const RtmpUrlSchema = z
  .string()
  .trim()
  .max(STREAMING_LIMITS.rtmpUrl)
  .pipe(z.url({ protocol: /^rtmps?$/ }));

export const DestinationRequestSchema = z.object({
  connection_id: IdSchema,
  title: optionalText(STREAMING_LIMITS.title),
  description: optionalText(STREAMING_LIMITS.description),
  privacy: z.enum(YOUTUBE_PRIVACY).optional(),
  category: optionalText(STREAMING_LIMITS.category),
});
export type DestinationRequest = z.infer<typeof DestinationRequestSchema>;

/** Form posts send the destinations as one JSON-encoded field; JSON bodies may send the array itself. */
export const DestinationsFieldSchema = jsonInForm(z.array(DestinationRequestSchema).max(STREAMING_LIMITS.destinations));

export const RecordFlagSchema = formInt(z.number().min(0).max(1));

export const TokenOnlyInputSchema = z.object({ token: TokenSchema, lng: LanguageFieldSchema });
export const StartStreamConnectionInputSchema = TokenOnlyInputSchema.extend({
  platform: z.enum(OAUTH_STREAM_PLATFORMS),
});
export const FinishStreamConnectionInputSchema = TokenOnlyInputSchema.extend({
  platform: z.enum(OAUTH_STREAM_PLATFORMS),
  code: z.string().max(2000).optional(),
  state: z.string().max(200),
  error: z.string().max(200).optional(),
});
const StreamKeySchema = text({ max: STREAMING_LIMITS.streamKey }).refine((key) => !/[\s/?#]/.test(key), {
  message: 'stream_key',
});
export const AddRtmpDestinationInputSchema = TokenOnlyInputSchema.extend({
  name: text({ max: STREAMING_LIMITS.connectionName }),
  url: RtmpUrlSchema,
  stream_key: StreamKeySchema,
});
/** Same checks as adding; an empty or missing `stream_key` keeps the stored one. */
export const EditRtmpDestinationInputSchema = AddRtmpDestinationInputSchema.extend({
  id: IdSchema,
  stream_key: z.union([z.literal(''), StreamKeySchema]).optional(),
});
export const TestRtmpDestinationInputSchema = TokenOnlyInputSchema.extend({ id: IdSchema });
export const RemoveStreamConnectionInputSchema = TokenOnlyInputSchema.extend({ id: IdSchema });
/**
 * The scene fields of a start or an overlay change; not sent: it stays. An empty message clears it,
 * a countdown of 0 clears it (a time in the past or more than a day ahead is refused by the server,
 * which knows the time).
 */
export const BroadcastSceneFieldsSchema = z.object({
  scene: z.enum(BROADCAST_SCENES).optional(),
  scene_message: optionalUserText(STREAMING_LIMITS.sceneMessage),
  scene_countdown_to: EpochSecondsSchema.optional(),
});
/**
 * What a host may ask the composer to encode (ADR 050): 1080p30 when the server can afford it, else
 * the best it can (the answer's `quality`); 720p30, the default, when not asked.
 */
export const ASKED_BROADCAST_QUALITIES = ['720p30', '1080p30'] as const;
export const StartBroadcastInputSchema = TokenOnlyInputSchema.extend({
  meetId: MeetIdSchema,
  destinations: DestinationsFieldSchema.default([]),
  record: RecordFlagSchema.default(0),
  quality: z.enum(ASKED_BROADCAST_QUALITIES).optional(),
  /** 1: a rehearsal (ADR 047), previewed in the studio only, no destination needed, until go-live.php. */
  rehearsal: RecordFlagSchema.optional(),
  ...BroadcastSceneFieldsSchema.shape,
});
export const BroadcastMeetInputSchema = TokenOnlyInputSchema.extend({ meetId: MeetIdSchema });
/** Ends a rehearsal: the broadcast becomes public, with these destinations and the recording if asked. */
export const GoLiveInputSchema = BroadcastMeetInputSchema.extend({
  destinations: DestinationsFieldSchema.default([]),
  record: RecordFlagSchema.default(0),
});
/** Anyone may ask; a room grant (people in the meeting, the composer) sees what the room sees. */
export const GetBroadcastInputSchema = z.object({
  token: z.string().max(512).optional(),
  grant: z.string().max(100).optional(),
  meetId: MeetIdSchema,
  lng: LanguageFieldSchema,
});
/** Adds or removes one destination while live (the Live panel). */
export const ChangeBroadcastDestinationInputSchema = BroadcastMeetInputSchema.extend({
  /** A JSON array holding the one destination to add. */
  destination: DestinationsFieldSchema.refine((list) => list.length === 1, { message: 'one_destination' }).optional(),
  remove_connection_id: IdSchema.optional(),
});
export const SetBroadcastOverlayInputSchema = BroadcastMeetInputSchema.extend({
  logo_url: z
    .string()
    .trim()
    .max(STREAMING_LIMITS.logoUrl)
    .refine((value) => value === '' || /^(https?:\/\/|\/)/.test(value), { message: 'logo_url' })
    .optional(),
  banner: optionalText(STREAMING_LIMITS.overlayText),
  ticker: optionalText(STREAMING_LIMITS.overlayText),
  /** Not sent: the layout stays. */
  layout: z.enum(BROADCAST_LAYOUTS).optional(),
  /** Not sent: the overlay image stays; `kit`, `none` or a library overlay's id (issue 45). */
  overlay_image: z.union([z.enum(['kit', 'none']), IdSchema]).optional(),
  ...BroadcastSceneFieldsSchema.shape,
});
/** Puts one person of the room on the broadcast (`on_stage` 1) or backstage (0) while it runs (ADR 045). */
export const SetBroadcastStageInputSchema = BroadcastMeetInputSchema.extend({
  participant_id: text({ max: 40 }),
  on_stage: formInt(z.number().int().min(0).max(1)),
});
export const TwitchCategorySearchInputSchema = TokenOnlyInputSchema.extend({
  connection_id: IdSchema,
  query: text({ max: 100 }),
});

export const StreamConnectionListBodySchema = nestedData(z.array(StreamConnectionSchema));
export const StreamConnectionBodySchema = nestedData(StreamConnectionSchema);
export const StartStreamConnectionBodySchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({ url: z.string() }),
});
export const LiveBroadcastBodySchema = nestedData(LiveBroadcastSchema);
export const OptionalLiveBroadcastBodySchema = nestedData(LiveBroadcastSchema.nullable());
export const TwitchCategoryListBodySchema = nestedData(z.array(z.object({ id: z.string(), name: z.string() })));

/** A recorded broadcast or meeting, for Recent Meetings and My Channel. */
export const RecordingSchema = z.object({
  broadcast_id: z.number().int(),
  url_slug: z.string(),
  meeting_title: z.string(),
  url: z.string(),
  /** Seconds. */
  duration: z.number(),
  created_at: z.number().int(),
});
export type Recording = z.infer<typeof RecordingSchema>;
export const RecordingListBodySchema = nestedData(z.array(RecordingSchema));

/**
 * A scheduled channel broadcast's "go live by itself" plan (My Channel): where it goes and whether
 * it is recorded. Each planned destination carries its connection's name, platform and status, so
 * a connection revoked since scheduling shows as such (it is left out when the plan starts).
 */
export const BroadcastPlanSchema = z.object({
  destinations: z.array(
    DestinationRequestSchema.extend({
      platform: z.enum(STREAM_PLATFORMS),
      name: z.string(),
      status: z.enum(CONNECTION_STATUSES),
    }),
  ),
  record: z.boolean(),
  /** True once it has started: it cannot be changed any more. */
  started: z.boolean(),
});
export type BroadcastPlan = z.infer<typeof BroadcastPlanSchema>;
export const OptionalBroadcastPlanBodySchema = nestedData(BroadcastPlanSchema.nullable());
/** Replaces the plan; no destination and record 0 removes it. */
export const SetBroadcastPlanInputSchema = BroadcastMeetInputSchema.extend({
  destinations: DestinationsFieldSchema.default([]),
  record: RecordFlagSchema.default(0),
});
