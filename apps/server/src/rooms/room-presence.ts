import { and, count, desc, eq, isNotNull, isNull, meetingAttendance } from '@meetcast/db';
import type { AppContext } from '../context.js';

/**
 * Whether anyone is in a meeting now, from its attendance (the composer has none), and when the
 * last one left: what a broadcast filmed for nobody is ended by.
 */
export async function meetingPresence(
  context: AppContext,
  meetingId: number,
): Promise<{ isSomeoneIn: boolean; lastLeftAt: Date | null }> {
  const [present] = await context.db
    .select({ open: count() })
    .from(meetingAttendance)
    .where(and(eq(meetingAttendance.meetingId, meetingId), isNull(meetingAttendance.leftAt)));
  const [last] = await context.db
    .select({ at: meetingAttendance.leftAt })
    .from(meetingAttendance)
    .where(and(eq(meetingAttendance.meetingId, meetingId), isNotNull(meetingAttendance.leftAt)))
    .orderBy(desc(meetingAttendance.leftAt))
    .limit(1);
  return { isSomeoneIn: (present?.open ?? 0) > 0, lastLeftAt: last?.at ?? null };
}
