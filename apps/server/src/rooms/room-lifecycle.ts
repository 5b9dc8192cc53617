import { type ChatMessage } from '@meetcast/contracts';
import {
  and,
  asc,
  chatMessages,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  meetingAttendance,
  roomParticipants,
  sql,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { MeetingRepository, type Executor } from '../meeting-records/meeting-repository.js';
import type { ParticipantRow } from './grants.js';
import { toEpochSeconds } from '../platform/time.js';

/** The meeting is live from its first admitted arrival. */
export async function markLive(context: AppContext, meetingId: number) {
  await new MeetingRepository(context.db).markLive(meetingId);
}

/** Opens (or continues, after a reconnection) the participant's attendance; returns its start. */
export async function openAttendance(context: AppContext, participant: ParticipantRow): Promise<Date> {
  if (participant.attendanceId) {
    const [open] = await context.db
      .select()
      .from(meetingAttendance)
      .where(and(eq(meetingAttendance.id, participant.attendanceId), isNull(meetingAttendance.leftAt)));
    if (open) return open.joinedAt;
  }
  // One statement: the attendance row and the participant's reference to it (a join asks enough).
  const opened = context.db
    .$with('opened')
    .as(
      context.db
        .insert(meetingAttendance)
        .values({ meetingId: participant.meetingId, userId: participant.userId, displayName: participant.displayName })
        .returning({ id: meetingAttendance.id, joinedAt: meetingAttendance.joinedAt }),
    );
  const [row] = await context.db
    .with(opened)
    .update(roomParticipants)
    .set({ attendanceId: sql`(select ${opened.id} from ${opened})`, updatedAt: new Date() })
    .where(eq(roomParticipants.id, participant.id))
    .returning({ joinedAt: sql<string>`(select ${opened.joinedAt} from ${opened})` });
  if (!row) throw new Error('attendance not stored');
  return new Date(row.joinedAt);
}

export async function closeAttendance(context: AppContext, participantId: string, at: Date) {
  const [participant] = await context.db
    .select({ attendanceId: roomParticipants.attendanceId })
    .from(roomParticipants)
    .where(eq(roomParticipants.id, participantId));
  if (!participant?.attendanceId) return;
  await context.db
    .update(meetingAttendance)
    .set({ leftAt: at })
    .where(and(eq(meetingAttendance.id, participant.attendanceId), isNull(meetingAttendance.leftAt)));
}

/**
 * Whether someone of the meeting may still come back into it: admitted, their attendance still open
 * (a drop leaves it so until the reconnect grace is over) and their grant current. Read from the
 * database, so a drop held by another server process counts too; a grant no one renews any more (its
 * process gone) stops counting once it expires.
 */
export async function isAnyoneExpectedBack(context: AppContext, meetingId: number): Promise<boolean> {
  const [row] = await context.db
    .select({ id: roomParticipants.id })
    .from(roomParticipants)
    .innerJoin(meetingAttendance, eq(meetingAttendance.id, roomParticipants.attendanceId))
    .where(
      and(
        eq(roomParticipants.meetingId, meetingId),
        eq(roomParticipants.state, 'admitted'),
        isNull(meetingAttendance.leftAt),
        gt(roomParticipants.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function participantRows(context: AppContext, ids: string[]) {
  if (ids.length === 0) return new Map<string, ParticipantRow>();
  const rows = await context.db.select().from(roomParticipants).where(inArray(roomParticipants.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

export async function chatHistory(context: AppContext, meetingId: number): Promise<ChatMessage[]> {
  const rows = await context.db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.meetingId, meetingId))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(200);
  return rows.reverse().map((row) => ({
    id: row.id,
    participant_id: null,
    display_name: row.displayName,
    text: row.body,
    created_at: toEpochSeconds(row.createdAt),
  }));
}

export async function storeChat(context: AppContext, participant: ParticipantRow, text: string): Promise<ChatMessage> {
  const [row] = await context.db
    .insert(chatMessages)
    .values({
      meetingId: participant.meetingId,
      userId: participant.userId,
      displayName: participant.displayName,
      body: text,
    })
    .returning();
  if (!row) throw new Error('chat not stored');
  return {
    id: row.id,
    participant_id: participant.id,
    display_name: row.displayName,
    text: row.body,
    created_at: toEpochSeconds(row.createdAt),
  };
}

export async function lobbyRows(context: AppContext, meetingId: number) {
  return context.db
    .select({ id: roomParticipants.id, displayName: roomParticipants.displayName })
    .from(roomParticipants)
    .where(and(eq(roomParticipants.meetingId, meetingId), eq(roomParticipants.state, 'lobby')))
    .orderBy(asc(roomParticipants.createdAt));
}

/**
 * Closes everyone's open attendance in these meetings. The rooms feature owns `meeting_attendance`
 * (ADR 013); the admin area calls this inside the transaction that ends a meeting.
 */
export async function closeOpenAttendance(db: Executor, meetingIds: number[], now = new Date()) {
  if (meetingIds.length === 0) return;
  await db
    .update(meetingAttendance)
    .set({ leftAt: now })
    .where(and(inArray(meetingAttendance.meetingId, meetingIds), isNull(meetingAttendance.leftAt)));
}
