import { POLL_LIMITS, type Poll } from '@meetcast/contracts';
import { and, asc, count, eq, isNull, meetingPolls, meetingPollVotes, sql } from '@meetcast/db';
import type { AppContext } from '../context.js';
import type { ParticipantRow } from './grants.js';
import { Refusal } from './room-moderation.js';
import { toEpochSeconds } from '../platform/time.js';

type Database = AppContext['db'];
type PollRow = typeof meetingPolls.$inferSelect;

/** Who a vote belongs to: the account, else the guest's browser, else the seat (see meetingPollVotes). */
export function voterOf(participant: ParticipantRow): string {
  if (participant.userId !== null) return `u:${participant.userId}`;
  if (participant.browserHash) return `b:${participant.browserHash}`;
  return `p:${participant.id}`;
}

async function describePoll(db: Database, row: PollRow, voter: string | null): Promise<Poll> {
  const tallies = await db
    .select({ choice: meetingPollVotes.choice, votes: count() })
    .from(meetingPollVotes)
    .where(eq(meetingPollVotes.pollId, row.id))
    .groupBy(meetingPollVotes.choice);
  const mine = voter
    ? await db
        .select({ choice: meetingPollVotes.choice })
        .from(meetingPollVotes)
        .where(and(eq(meetingPollVotes.pollId, row.id), eq(meetingPollVotes.voter, voter)))
    : [];
  return {
    id: row.id,
    question: row.question,
    options: row.options.map((option, index) => ({
      text: option,
      votes: tallies.find((tally) => tally.choice === index)?.votes ?? 0,
    })),
    closed: row.closedAt !== null,
    created_by: row.createdBy,
    created_at: toEpochSeconds(row.createdAt),
    my_choice: mine[0]?.choice ?? null,
  };
}

async function pollOfMeeting(db: Database, meetingId: number, pollId: number): Promise<PollRow> {
  const [row] = await db
    .select()
    .from(meetingPolls)
    .where(and(eq(meetingPolls.id, pollId), eq(meetingPolls.meetingId, meetingId)));
  if (!row) throw new Refusal('not_found');
  return row;
}

/** Every poll of the meeting, oldest first, with this participant's own choices. */
export async function pollsFor(db: Database, participant: ParticipantRow): Promise<Poll[]> {
  const rows = await db
    .select()
    .from(meetingPolls)
    .where(eq(meetingPolls.meetingId, participant.meetingId))
    .orderBy(asc(meetingPolls.createdAt), asc(meetingPolls.id));
  return Promise.all(rows.map((row) => describePoll(db, row, voterOf(participant))));
}

export async function createPoll(
  db: Database,
  host: ParticipantRow,
  question: string,
  options: string[],
): Promise<Poll> {
  const [existing] = await db
    .select({ total: count() })
    .from(meetingPolls)
    .where(eq(meetingPolls.meetingId, host.meetingId));
  if ((existing?.total ?? 0) >= POLL_LIMITS.perMeeting) throw new Refusal('rate_limited');
  const [row] = await db
    .insert(meetingPolls)
    .values({ meetingId: host.meetingId, question, options, createdBy: host.displayName })
    .returning();
  if (!row) throw new Error('poll not stored');
  return describePoll(db, row, null);
}

export async function closePoll(db: Database, meetingId: number, pollId: number): Promise<Poll> {
  const row = await pollOfMeeting(db, meetingId, pollId);
  const [closed] = await db
    .update(meetingPolls)
    .set({ closedAt: new Date() })
    .where(and(eq(meetingPolls.id, row.id), isNull(meetingPolls.closedAt)))
    .returning();
  return describePoll(db, closed ?? row, null);
}

/** One vote per person; voting again while the poll is open changes it. */
export async function votePoll(
  db: Database,
  participant: ParticipantRow,
  pollId: number,
  choice: number,
): Promise<Poll> {
  const row = await pollOfMeeting(db, participant.meetingId, pollId);
  if (row.closedAt !== null || choice >= row.options.length) throw new Refusal('forbidden');
  await db
    .insert(meetingPollVotes)
    .values({ pollId: row.id, voter: voterOf(participant), choice })
    .onConflictDoUpdate({
      target: [meetingPollVotes.pollId, meetingPollVotes.voter],
      set: { choice, createdAt: sql`now()` },
    });
  return describePoll(db, row, null);
}
