import { index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns.js';
import { meetings } from './meetings.js';

/** A question a host put to a meeting's room; it stays with the meeting, results included. */
export const meetingPolls = pgTable(
  'meeting_polls',
  {
    id: serial('id').primaryKey(),
    meetingId: integer('meeting_id')
      .notNull()
      .references(() => meetings.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    options: jsonb('options').$type<string[]>().notNull(),
    createdBy: text('created_by').notNull(),
    closedAt: instant('closed_at'),
    createdAt: createdAt(),
  },
  (table) => [index('meeting_polls_meeting_idx').on(table.meetingId)],
);

/**
 * One vote per person and poll. `voter` is the account (`u:<id>`), else the guest's browser identity
 * (`b:<hash>`), else the room participant (`p:<id>`): a person who rejoins still has their vote.
 */
export const meetingPollVotes = pgTable(
  'meeting_poll_votes',
  {
    pollId: integer('poll_id')
      .notNull()
      .references(() => meetingPolls.id, { onDelete: 'cascade' }),
    voter: text('voter').notNull(),
    choice: integer('choice').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.pollId, table.voter] })],
);
