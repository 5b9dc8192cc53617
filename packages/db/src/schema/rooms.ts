import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, instant, updatedAt } from './columns.js';
import { meetingAttendance, meetings } from './meetings.js';

/** The Janus room secret and pin of a meeting: only the server knows them, browsers never do. */
export const roomCredentials = pgTable('room_credentials', {
  meetingId: integer('meeting_id')
    .primaryKey()
    .references(() => meetings.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  pin: text('pin').notNull(),
  createdAt: createdAt(),
});

/** `composer`: the broadcast composer's seat; it watches and listens, is never listed, never counted, never speaks. */
export const PARTICIPANT_ROLES = ['host', 'cohost', 'participant', 'composer'] as const;
export const PARTICIPANT_STATES = ['lobby', 'admitted', 'denied', 'removed', 'left'] as const;

/**
 * One join grant: who may be in a meeting's room, as what, and whether they wait in the lobby or
 * were removed. The grant token itself is only stored hashed.
 */
export const roomParticipants = pgTable(
  'room_participants',
  {
    /** Public, random; names the participant in the room protocol and in Janus. */
    id: text('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    displayName: text('display_name').notNull(),
    /**
     * SHA-256 of the random identity the server keeps in the browser's HttpOnly cookie, so that a
     * removed guest who comes back under another name is still known as removed.
     */
    browserHash: text('browser_hash'),
    /**
     * A keyed hash of the address the participant joined from: a guest removed from a meeting who
     * comes back from the same address without their browser's identity still waits in the lobby.
     */
    addressHash: text('address_hash'),
    role: text('role', { enum: PARTICIPANT_ROLES }).notNull(),
    /** Came through the studio's backstage link: not on a broadcast until the host adds them (ADR 045). */
    backstage: boolean('backstage').notNull().default(false),
    state: text('state', { enum: PARTICIPANT_STATES }).notNull(),
    grantHash: text('grant_hash').notNull(),
    attendanceId: integer('attendance_id').references(() => meetingAttendance.id, { onDelete: 'set null' }),
    expiresAt: instant('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('room_participants_grant_unique').on(table.grantHash),
    index('room_participants_meeting_idx').on(table.meetingId, table.state),
    index('room_participants_browser_idx').on(table.meetingId, table.browserHash),
  ],
);

/**
 * The Janus instances server processes started themselves (no JANUS_URL), so that every process of
 * an installation can reach a room wherever it was placed. A process refreshes its row while it
 * lives; a row not refreshed for a while names an instance that is gone.
 */
export const mediaServers = pgTable('media_servers', {
  url: text('url').primaryKey(),
  apiSecret: text('api_secret').notNull(),
  adminKey: text('admin_key').notNull(),
  heartbeatAt: instant('heartbeat_at').notNull(),
});
