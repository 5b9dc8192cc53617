import { index, integer, pgTable, real, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, instant } from './columns.js';
import { meetings } from './meetings.js';
import { channels } from './people.js';
import { liveBroadcasts } from './streaming.js';

/**
 * "Notify me" on a channel's scheduled broadcast (ADR 048): the viewer is e-mailed and notified when
 * it goes live, once; `notified_at` is set by the one UPDATE that claims the row, so two server
 * processes never tell the same person twice. Goes with the account, the meeting and the channel.
 */
export const broadcastReminders = pgTable(
  'broadcast_reminders',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    notifiedAt: instant('notified_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('broadcast_reminders_unique').on(table.meetingId, table.userId),
    index('broadcast_reminders_user_idx').on(table.userId),
    index('broadcast_reminders_channel_idx').on(table.channelId),
  ],
);

/**
 * A chapter of a broadcast's replay (ADR 048): the host changed the layout or the scene, or someone
 * started or stopped sharing a screen, at `at`; its offset in the recording is counted from the
 * broadcast's `started_at` (when the recording starts) when it is read.
 */
export const broadcastChapters = pgTable(
  'broadcast_chapters',
  {
    id: serial('id').primaryKey(),
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => liveBroadcasts.id, { onDelete: 'cascade' }),
    /** BROADCAST_CHAPTER_KINDS in the contracts: `layout`, `screen_share_start`, `screen_share_stop` or `scene_*`. */
    kind: text('kind').notNull(),
    /** The layout chosen (BROADCAST_LAYOUTS in the contracts) for a `layout` chapter, else null. */
    layout: text('layout'),
    at: instant('at').notNull().defaultNow(),
    /** Seconds since the broadcast started, when it had started; kept for a quick look in the database. */
    offsetSeconds: real('offset_seconds'),
  },
  (table) => [index('broadcast_chapters_broadcast_idx').on(table.broadcastId, table.at)],
);
