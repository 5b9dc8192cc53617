import { boolean, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, instant, updatedAt } from './columns.js';

export const MEETING_STATES = ['scheduled', 'live', 'ended', 'cancelled'] as const;

export const meetings = pgTable(
  'meetings',
  {
    id: serial('id').primaryKey(),
    hostId: integer('host_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Unique across the installation; the room lives at /room/{slug}. */
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    isSchedule: smallint('is_schedule').notNull(),
    isPrivate: smallint('is_private').notNull().default(2),
    isPassword: smallint('is_password').notNull().default(2),
    passwordHash: text('password_hash'),
    /** Kept so an invite link can carry it; only the host ever reads it back. */
    passwordPlain: text('password_plain'),
    startTime: instant('start_time').notNull(),
    endTime: instant('end_time').notNull(),
    repeat: smallint('repeat').notNull().default(0),
    timeZone: text('time_zone').notNull().default('UTC'),
    state: text('state', { enum: MEETING_STATES }).notNull().default('scheduled'),
    isLocked: boolean('is_locked').notNull().default(false),
    channelId: integer('channel_id'),
    /** The Janus instance and room number the server placed this meeting on. */
    janusServer: text('janus_server'),
    janusRoomId: integer('janus_room_id'),
    /** When the host cancelled the whole series; occurrences from then on no longer take place. */
    cancelledAt: instant('cancelled_at'),
    /**
     * The calendar files' SEQUENCE: raised only when the schedule changes (start, end, repeat rule,
     * time zone, a cancelled occurrence, the cancellation), so that calendar apps take the change.
     */
    scheduleSequence: integer('schedule_sequence').notNull().default(0),
    startedAt: instant('started_at'),
    endedAt: instant('ended_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('meetings_slug_unique').on(table.slug),
    index('meetings_host_idx').on(table.hostId, table.startTime),
  ],
);

export const meetingInvitees = pgTable(
  'meeting_invitees',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    isCoHost: boolean('is_co_host').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('meeting_invitees_unique').on(table.meetingId, table.email),
    index('meeting_invitees_user_idx').on(table.userId),
  ],
);

/** One cancelled occurrence of a repeating meeting. */
export const meetingExceptions = pgTable(
  'meeting_exceptions',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    occurrenceStart: instant('occurrence_start').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('meeting_exceptions_unique').on(table.meetingId, table.occurrenceStart)],
);

/** Who was in a meeting and for how long: feeds Recent Meetings and the dashboards. */
export const meetingAttendance = pgTable(
  'meeting_attendance',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    displayName: text('display_name').notNull(),
    joinedAt: instant('joined_at').notNull().defaultNow(),
    leftAt: instant('left_at'),
  },
  (table) => [index('meeting_attendance_meeting_idx').on(table.meetingId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    displayName: text('display_name').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('chat_messages_meeting_idx').on(table.meetingId, table.createdAt)],
);

/** A reminder sent once per meeting occurrence and person, even with several server processes. */
export const sentReminders = pgTable(
  'sent_reminders',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    occurrenceStart: instant('occurrence_start').notNull(),
    recipient: text('recipient').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('sent_reminders_unique').on(table.meetingId, table.occurrenceStart, table.recipient)],
);

/** A row of `meetings`, as every feature reads it. */
export type MeetingRow = typeof meetings.$inferSelect;
