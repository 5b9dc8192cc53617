import { and, eq, inArray, isNull, meetingAttendance, meetings } from '@meetcast/db';
import type { AppContext } from '../context.js';
import type { Transaction } from './audit.js';

/** Told after a meeting was ended (or deleted) for everyone; the room tears down its live media here. */
export type MeetingEndedListener = (meetingId: number) => Promise<void> | void;

const listeners = new WeakMap<AppContext, MeetingEndedListener[]>();

/** The room feature registers its live teardown (close the Janus room, disconnect sockets) here. */
export function onMeetingEndedForEveryone(context: AppContext, listener: MeetingEndedListener) {
  listeners.set(context, [...(listeners.get(context) ?? []), listener]);
}

/**
 * Marks meetings ended inside the caller's transaction: state `ended`, `ended_at` now, and every open
 * attendance row closed. Returns the ids that were live or had people in them.
 */
export async function markMeetingsEnded(tx: Transaction, meetingIds: number[], now = new Date()) {
  if (meetingIds.length === 0) return [];
  const ended = await tx
    .update(meetings)
    .set({ state: 'ended', endedAt: now, updatedAt: now })
    .where(inArray(meetings.id, meetingIds))
    .returning({ id: meetings.id });
  await tx
    .update(meetingAttendance)
    .set({ leftAt: now })
    .where(and(inArray(meetingAttendance.meetingId, meetingIds), isNull(meetingAttendance.leftAt)));
  return ended.map((row) => row.id);
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

/** Runs the live teardown after the change is committed; one failing listener does not stop the others. */
export async function notifyMeetingsEnded(context: AppContext, meetingIds: number[]) {
  for (const meetingId of meetingIds) {
    for (const listener of listeners.get(context) ?? []) {
      try {
        await listener(meetingId);
      } catch (error) {
        context.log.error({ err: error, meetingId }, 'live teardown of an ended meeting failed');
      }
    }
  }
}
