import { and, eq, isNull, meetingAttendance } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import { closeOpenAttendance } from '../rooms/room-lifecycle.js';
import type { Transaction } from './audit.js';

/**
 * Marks meetings ended inside the caller's transaction: state `ended`, `ended_at` now, and every open
 * attendance row closed. Returns the ids that were live or had people in them.
 */
export async function markMeetingsEnded(tx: Transaction, meetingIds: number[], now = new Date()) {
  if (meetingIds.length === 0) return [];
  const ended = await new MeetingRepository(tx).end(meetingIds, now);
  await closeOpenAttendance(tx, meetingIds, now);
  return ended;
}

/** Whether a meeting is live: its state says so, or somebody is in its room. */
export async function isMeetingLive(tx: Transaction | AppContext['db'], meetingId: number, state: string) {
  if (state === 'live') return true;
  const [open] = await tx
    .select({ id: meetingAttendance.id })
    .from(meetingAttendance)
    .where(and(eq(meetingAttendance.meetingId, meetingId), isNull(meetingAttendance.leftAt)))
    .limit(1);
  return Boolean(open);
}
