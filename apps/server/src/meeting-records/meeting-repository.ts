import {
  and,
  asc,
  eq,
  gt,
  inArray,
  isNull,
  isUniqueViolation,
  meetingExceptions,
  meetings,
  ne,
  or,
  sql,
  users,
  type Database,
  type MeetingRow,
} from '@meetcast/db';
import type { SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { conflict } from '../http/app-error.js';
import { statesThatMayBecome, type MeetingState } from './meeting-states.js';

/** A transaction handle: the same query builder as the database, rolled back as one. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The repository works on the database or inside a caller's transaction (the admin area's audit). */
export type Executor = Database | Transaction;

/** What a new meeting row holds; the columns the database fills (id, state, times of change) are left out. */
export type NewMeetingRow = Omit<typeof meetings.$inferInsert, 'id' | 'state' | 'createdAt' | 'updatedAt'>;

/** The columns the host's edit dialog changes. */
export type MeetingEdit = Pick<
  typeof meetings.$inferInsert,
  | 'name'
  | 'slug'
  | 'description'
  | 'isSchedule'
  | 'isPrivate'
  | 'isPassword'
  | 'passwordHash'
  | 'passwordPlain'
  | 'startTime'
  | 'endTime'
  | 'repeat'
  | 'timeZone'
  | 'scheduleSequence'
>;

/** Meetings of this host that have not ended yet (a repeating one goes on after its first end). */
function upcomingHostedBy(hostId: number): SQL {
  return and(
    eq(meetings.hostId, hostId),
    inArray(meetings.state, ['scheduled', 'live']),
    or(gt(meetings.endTime, new Date()), ne(meetings.repeat, 0)),
  ) as SQL;
}

/** Two people taking the same free slug at once: the unique index decides, and the loser gets 409. */
async function refusingTakenSlug<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('meetings.slug_taken');
    throw error;
  }
}

/**
 * The one owner of the `meetings` table (ADR 013): every write of a meeting row, and the reads other
 * features need by id, slug or host, are named operations here. Changes of `state` go through
 * `moveTo`, which only matches rows whose state may become the new one (meeting-states.ts). List
 * queries that join meetings with other tables stay with the feature that shows them.
 */
export class MeetingRepository {
  constructor(private readonly db: Executor) {}

  async findById(id: number): Promise<MeetingRow | undefined> {
    const [row] = await this.db.select().from(meetings).where(eq(meetings.id, id)).limit(1);
    return row;
  }

  /** The meeting locked for the rest of the caller's transaction (the administrator's end and delete). */
  async findByIdForUpdate(id: number): Promise<MeetingRow | undefined> {
    const [row] = await this.db.select().from(meetings).where(eq(meetings.id, id)).limit(1).for('update');
    return row;
  }

  /** The meeting behind a /room/{slug} address. */
  async findBySlug(slug: string): Promise<MeetingRow | undefined> {
    const [row] = await this.db.select().from(meetings).where(eq(meetings.slug, slug)).limit(1);
    return row;
  }

  /** The same, with its host's name (which the room shows), in one statement. */
  async findBySlugWithHostName(slug: string): Promise<{ meeting: MeetingRow; hostName: string | null } | undefined> {
    const [row] = await this.db
      .select({ meeting: meetings, hostName: users.username })
      .from(meetings)
      .leftJoin(users, eq(users.id, meetings.hostId))
      .where(eq(meetings.slug, slug))
      .limit(1);
    return row;
  }

  async isSlugTaken(slug: string, exceptMeetingId?: number): Promise<boolean> {
    const [taken] = await this.db
      .select({ id: meetings.id })
      .from(meetings)
      .where(exceptMeetingId ? and(eq(meetings.slug, slug), ne(meetings.id, exceptMeetingId)) : eq(meetings.slug, slug))
      .limit(1);
    return Boolean(taken);
  }

  /** Every meeting a person hosts, earliest first (their data export). */
  async listForOwner(hostId: number): Promise<MeetingRow[]> {
    return this.db.select().from(meetings).where(eq(meetings.hostId, hostId)).orderBy(asc(meetings.startTime));
  }

  /** The host's meetings that have not ended yet, earliest first. */
  async listUpcomingForOwner(hostId: number, limit?: number): Promise<MeetingRow[]> {
    const query = this.db.select().from(meetings).where(upcomingHostedBy(hostId)).orderBy(asc(meetings.startTime));
    return limit === undefined ? query : query.limit(limit);
  }

  /** One of the host's meetings that have not ended yet, or nothing. */
  async findUpcomingForOwner(hostId: number, id: number): Promise<MeetingRow | undefined> {
    const [row] = await this.db
      .select()
      .from(meetings)
      .where(and(eq(meetings.id, id), upcomingHostedBy(hostId)))
      .limit(1);
    return row;
  }

  /** The ids of the live meetings these people host. */
  async liveIdsHostedBy(hostIds: number[]): Promise<number[]> {
    if (hostIds.length === 0) return [];
    const rows = await this.db
      .select({ id: meetings.id })
      .from(meetings)
      .where(and(inArray(meetings.hostId, hostIds), eq(meetings.state, 'live')));
    return rows.map((row) => row.id);
  }

  /** Stores a new meeting (state `scheduled`); a slug taken meanwhile answers 409. */
  async create(values: NewMeetingRow): Promise<MeetingRow> {
    const [row] = await refusingTakenSlug(this.db.insert(meetings).values(values).returning());
    if (!row) throw new Error('meeting insert returned nothing');
    return row;
  }

  /** The host's edit; a slug taken meanwhile answers 409. */
  async edit(id: number, changes: MeetingEdit): Promise<MeetingRow | undefined> {
    const [row] = await refusingTakenSlug(
      this.db
        .update(meetings)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(meetings.id, id))
        .returning(),
    );
    return row;
  }

  /** Raises the calendar SEQUENCE after a change of schedule that leaves the row alone (a cancelled occurrence). */
  async raiseScheduleSequence(id: number): Promise<MeetingRow | undefined> {
    const [row] = await this.db
      .update(meetings)
      .set({ scheduleSequence: sql`${meetings.scheduleSequence} + 1`, updatedAt: new Date() })
      .where(eq(meetings.id, id))
      .returning();
    return row;
  }

  /** Cancels one occurrence of a repeating meeting (an exception); false when it was cancelled already. */
  async cancelOccurrence(id: number, occurrenceStart: Date): Promise<boolean> {
    const inserted = await this.db
      .insert(meetingExceptions)
      .values({ meetingId: id, occurrenceStart })
      .onConflictDoNothing()
      .returning({ id: meetingExceptions.id });
    return inserted.length > 0;
  }

  /**
   * Changes the state of these meetings, but only of those whose current state may become `next`
   * (and, when given, is one of `onlyFrom`); returns the rows that changed.
   */
  private async moveTo(
    ids: number[],
    next: MeetingState,
    changes: PgUpdateSetSource<typeof meetings>,
    onlyFrom?: readonly MeetingState[],
  ): Promise<MeetingRow[]> {
    if (ids.length === 0) return [];
    const from = statesThatMayBecome(next).filter((state) => !onlyFrom || onlyFrom.includes(state));
    return this.db
      .update(meetings)
      .set({ ...changes, state: next })
      .where(and(inArray(meetings.id, ids), inArray(meetings.state, from)))
      .returning();
  }

  /** The first admitted arrival: a scheduled meeting goes live (started_at keeps the first start). */
  async markLive(id: number): Promise<void> {
    await this.moveTo([id], 'live', { startedAt: sql`coalesce(${meetings.startedAt}, now())`, updatedAt: new Date() });
  }

  /**
   * A live session is over: the meeting is ended for good (`ended`) or, for a repeating meeting that
   * goes on, back to `scheduled`. The lock is lifted for the next session.
   */
  async closeSession(id: number, next: 'ended' | 'scheduled', now = new Date()): Promise<void> {
    await this.moveTo(
      [id],
      next,
      { endedAt: now, isLocked: false, updatedAt: now },
      next === 'scheduled' ? ['live'] : undefined,
    );
  }

  /** Ends these meetings (an administrator's end) and lifts their lock; returns the ids that changed. */
  async end(ids: number[], now = new Date()): Promise<number[]> {
    const ended = await this.moveTo(ids, 'ended', { endedAt: now, isLocked: false, updatedAt: now });
    return ended.map((row) => row.id);
  }

  /** The owner opens their ended instant meeting's link again: a fresh session, not started yet. */
  async reopen(id: number): Promise<MeetingRow | undefined> {
    const [row] = await this.moveTo(
      [id],
      'scheduled',
      { startedAt: null, endedAt: null, isLocked: false, updatedAt: new Date() },
      ['ended'],
    );
    return row;
  }

  /** Cancels these meetings for good; calendars take the change (SEQUENCE + 1). Returns the rows that changed. */
  async cancel(ids: number[], now = new Date()): Promise<MeetingRow[]> {
    return this.moveTo(ids, 'cancelled', {
      cancelledAt: now,
      isLocked: false,
      scheduleSequence: sql`${meetings.scheduleSequence} + 1`,
      updatedAt: now,
    });
  }

  async setLocked(id: number, locked: boolean): Promise<void> {
    await this.db.update(meetings).set({ isLocked: locked, updatedAt: new Date() }).where(eq(meetings.id, id));
  }

  /**
   * Records the Janus instance and room of a meeting, only if the placement is still the one the
   * caller saw (`previousServer`): of two processes placing the same meeting, one wins.
   */
  async claimPlacement(id: number, previousServer: string | undefined, server: string, room: number): Promise<boolean> {
    const claimed = await this.db
      .update(meetings)
      .set({ janusServer: server, janusRoomId: room })
      .where(
        and(
          eq(meetings.id, id),
          // An ended or cancelled meeting gets no room: a join that raced its end must not place it again.
          inArray(meetings.state, ['scheduled', 'live']),
          previousServer ? eq(meetings.janusServer, previousServer) : isNull(meetings.janusServer),
        ),
      )
      .returning({ id: meetings.id });
    return claimed.length > 0;
  }

  async forgetPlacement(id: number): Promise<void> {
    await this.db.update(meetings).set({ janusServer: null, janusRoomId: null }).where(eq(meetings.id, id));
  }

  /** A deleted channel's meetings stay, as ordinary meetings. */
  async detachChannel(channelId: number): Promise<void> {
    await this.db.update(meetings).set({ channelId: null }).where(eq(meetings.channelId, channelId));
  }

  /** Deletes a meeting with its history (invitees, exceptions, attendance, chat cascade). */
  async delete(id: number): Promise<void> {
    await this.db.delete(meetings).where(eq(meetings.id, id));
  }
}
