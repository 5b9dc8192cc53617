import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, real, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, instant, updatedAt } from './columns.js';
import { meetings } from './meetings.js';
import { brandOverlays } from './people.js';

export const STREAM_CONNECTION_PLATFORMS = ['youtube', 'twitch', 'rtmp'] as const;
export const STREAM_CONNECTION_STATUSES = ['connected', 'expired', 'revoked'] as const;
export const RTMP_TEST_RESULTS = ['worked', 'failed'] as const;

/**
 * A place a user can stream to: a YouTube or Twitch account (OAuth tokens) or an RTMP address with
 * its key. Every secret column holds ciphertext (AES-256-GCM under SECRETS_KEY), never the secret.
 */
export const streamConnections = pgTable(
  'stream_connections',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: STREAM_CONNECTION_PLATFORMS }).notNull(),
    /** The platform's channel title or login, or the name the user gave an RTMP address. */
    name: text('name').notNull(),
    status: text('status', { enum: STREAM_CONNECTION_STATUSES }).notNull().default('connected'),
    /** The platform's id of the account (YouTube channel id, Twitch user id). */
    externalId: text('external_id'),
    accessTokenSealed: text('access_token_sealed'),
    refreshTokenSealed: text('refresh_token_sealed'),
    tokenExpiresAt: instant('token_expires_at'),
    /** Twitch asks apps to validate their tokens at start and every hour. */
    validatedAt: instant('validated_at'),
    rtmpUrl: text('rtmp_url'),
    streamKeySealed: text('stream_key_sealed'),
    /** The last test push to an RTMP address: when, whether it worked, and the message key of why not. */
    lastTestAt: instant('last_test_at'),
    lastTestResult: text('last_test_result', { enum: RTMP_TEST_RESULTS }),
    lastTestReason: text('last_test_reason'),
    /** When one of its broadcast destinations last went live. */
    lastLiveAt: instant('last_live_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('stream_connections_user_idx').on(table.userId)],
);

/** A row of `stream_connections`, as every feature reads it. */
export type ConnectionRow = typeof streamConnections.$inferSelect;

/** The `state` of a stream-platform OAuth flow: bound to the account that started it, single use, short-lived. */
export const streamOauthStates = pgTable('stream_oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  platform: text('platform', { enum: STREAM_CONNECTION_PLATFORMS }).notNull(),
  expiresAt: instant('expires_at').notNull(),
  createdAt: createdAt(),
});

export const LIVE_BROADCAST_STATES = ['starting', 'live', 'ended', 'failed'] as const;

/** One go-live of a meeting: one composer, one encode, fanned out to its destinations and recording. */
export const liveBroadcasts = pgTable(
  'live_broadcasts',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    state: text('state', { enum: LIVE_BROADCAST_STATES }).notNull().default('starting'),
    record: boolean('record').notNull().default(false),
    /**
     * A rehearsal (ADR 047 part 2): the encode runs and the studio previews it, but nobody else sees it
     * (public reads add `rehearsal = false`) until "Go live" clears it.
     */
    rehearsal: boolean('rehearsal').notNull().default(false),
    /** Set by the host's stop; the composer that runs the broadcast ends it. */
    stopRequested: boolean('stop_requested').notNull().default(false),
    /** The worker running the composer and when it last said so; a silent worker's broadcast is taken over. */
    composerId: text('composer_id'),
    composerHeartbeatAt: instant('composer_heartbeat_at'),
    /**
     * What the composer encodes (`1080p30`, `720p30`, `720p24`, `540p30`): what the host asked for
     * until a composer claims the broadcast, then what that machine could afford (ADR 050).
     */
    quality: text('quality'),
    /** The message key of why the broadcast failed, when it did. */
    failure: text('failure'),
    overlayLogoUrl: text('overlay_logo_url'),
    overlayBanner: text('overlay_banner'),
    overlayTicker: text('overlay_ticker'),
    /** The broadcast picture's layout the host chose (BROADCAST_LAYOUTS in the contracts; ADR 039). */
    overlayLayout: text('overlay_layout').notNull().default('auto'),
    /** The holding screen shown instead of the people (BROADCAST_SCENES in the contracts; ADR 042). */
    overlayScene: text('overlay_scene').notNull().default('live'),
    overlaySceneMessage: text('overlay_scene_message'),
    /** When the scene's countdown reaches zero. */
    overlaySceneCountdownTo: instant('overlay_scene_countdown_to'),
    /**
     * The overlay image the host picked (issue 45): `kit` (the brand kit's standard overlay), `none`,
     * or `library` for the one `overlay_image_id` names; that one deleted, nothing is drawn.
     */
    overlayImage: text('overlay_image').notNull().default('kit'),
    overlayImageId: integer('overlay_image_id').references(() => brandOverlays.id, { onDelete: 'set null' }),
    /**
     * The room participants on the broadcast (ADR 045): everyone else in the room is backstage, in the
     * meeting but neither drawn nor heard on the stream.
     */
    onStage: text('on_stage')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The MP4 under DATA_DIR/recordings, once the broadcast ended and it was finished. */
    recordingFile: text('recording_file'),
    recordingSeconds: real('recording_seconds'),
    startedAt: instant('started_at'),
    endedAt: instant('ended_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('live_broadcasts_meeting_idx').on(table.meetingId),
    // At most one running broadcast per meeting, whatever retries or processes race.
    uniqueIndex('live_broadcasts_one_running')
      .on(table.meetingId)
      .where(sql`${table.state} in ('starting', 'live')`),
  ],
);

/** A row of `live_broadcasts`, as every feature reads it. */
export type BroadcastRow = typeof liveBroadcasts.$inferSelect;

export const BROADCAST_DESTINATION_STATES = ['starting', 'live', 'reconnecting', 'failed', 'ended'] as const;

/** One platform a broadcast goes to, with its own life (states, reconnects, last error, figures). */
export const broadcastDestinations = pgTable(
  'broadcast_destinations',
  {
    id: serial('id').primaryKey(),
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => liveBroadcasts.id, { onDelete: 'cascade' }),
    connectionId: integer('connection_id').references(() => streamConnections.id, { onDelete: 'set null' }),
    platform: text('platform', { enum: STREAM_CONNECTION_PLATFORMS }).notNull(),
    name: text('name').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    privacy: text('privacy'),
    category: text('category'),
    state: text('state', { enum: BROADCAST_DESTINATION_STATES }).notNull().default('starting'),
    /** The host removed it while live; the composer stops its pusher. */
    removed: boolean('removed').notNull().default(false),
    /** The message key of the last error, when there was one. */
    error: text('error'),
    bitrateKbps: real('bitrate_kbps'),
    fps: real('fps'),
    health: text('health'),
    viewers: integer('viewers'),
    /** The platform's broadcast and stream ids, stored as soon as made so a retry never makes two. */
    externalBroadcastId: text('external_broadcast_id'),
    externalStreamId: text('external_stream_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('broadcast_destinations_unique').on(table.broadcastId, table.connectionId)],
);

/** A row of `broadcast_destinations`, as every feature reads it. */
export type DestinationRow = typeof broadcastDestinations.$inferSelect;

/** What a planned destination says: the fields of a go-live request (validated by the contracts). */
export interface PlannedDestination {
  connection_id: number;
  title?: string | undefined;
  description?: string | undefined;
  privacy?: string | undefined;
  category?: string | undefined;
}

/**
 * A channel broadcast's go-live chosen when it was scheduled: where it streams and whether it records.
 * It starts by itself at its time once the host is in the room, once (`startedAt`).
 */
export const broadcastPlans = pgTable('broadcast_plans', {
  meetingId: integer('meeting_id')
    .primaryKey()
    .references(() => meetings.id, { onDelete: 'cascade' }),
  destinations: jsonb('destinations').$type<PlannedDestination[]>().notNull(),
  record: boolean('record').notNull().default(false),
  startedAt: instant('started_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
