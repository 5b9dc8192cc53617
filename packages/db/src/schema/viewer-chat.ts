import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, instant, updatedAt } from './columns.js';
import { meetings } from './meetings.js';
import { liveBroadcasts } from './streaming.js';

/**
 * What viewers of a broadcast say on its public page. A message belongs to the broadcast (it goes
 * when the broadcast goes) and carries its offset from the broadcast's start, so the recording
 * replays it at the right moment. Its author is an account or a guest's per-browser identity.
 */
export const viewerChatMessages = pgTable(
  'viewer_chat_messages',
  {
    id: serial('id').primaryKey(),
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => liveBroadcasts.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The guest's random per-browser id (from the server-sealed viewer token); null for accounts. */
    guestId: text('guest_id'),
    displayName: text('display_name').notNull(),
    text: text('text').notNull(),
    /** Milliseconds from the broadcast's start to the message. */
    offsetMs: integer('offset_ms').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('viewer_chat_messages_broadcast_idx').on(table.broadcastId, table.id),
    index('viewer_chat_messages_author_idx').on(table.broadcastId, table.userId, table.guestId),
  ],
);

/** Slow mode and the pinned message of one broadcast's chat. */
export const viewerChatSettings = pgTable('viewer_chat_settings', {
  broadcastId: integer('broadcast_id')
    .primaryKey()
    .references(() => liveBroadcasts.id, { onDelete: 'cascade' }),
  slowModeSeconds: integer('slow_mode_seconds').notNull().default(0),
  pinnedMessageId: integer('pinned_message_id').references(() => viewerChatMessages.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

/**
 * A viewer kept out of a meeting's viewer chat: banned (no end) or timed out (until `until`). It holds
 * for every broadcast of the meeting. An account is named by its id, a guest by its per-browser id.
 */
export const viewerChatBans = pgTable(
  'viewer_chat_bans',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    guestId: text('guest_id'),
    /** Null: banned until lifted; else a time-out that ends then. */
    until: instant('until'),
    bannedBy: integer('banned_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('viewer_chat_bans_user_unique')
      .on(table.meetingId, table.userId)
      .where(sql`${table.userId} is not null`),
    uniqueIndex('viewer_chat_bans_guest_unique')
      .on(table.meetingId, table.guestId)
      .where(sql`${table.guestId} is not null`),
    check('viewer_chat_bans_one_target', sql`(${table.userId} is null) <> (${table.guestId} is null)`),
  ],
);
