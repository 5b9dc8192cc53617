import { REPEAT, SCHEDULE_FLAG } from '@meetcast/contracts';
import { and, inArray, roomParticipants } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import type { MeetingEndReason } from '../platform/app-events.js';
import type { MeetingRow } from './grants.js';
import { closeOpenAttendance } from './room-lifecycle.js';

/**
 * The one way a meeting's live session ends, whatever ended it (its host, an empty room, an
 * administrator, a cancellation, a deletion of the meeting or of its host's account):
 *
 * 1. the Janus placements are read first, since a deletion cascades them away;
 * 2. the caller's own change runs (`alongside`: its end, cancel or delete, in its transaction with
 *    its audit); when it throws, nothing else happens. `endedOf` names which meetings it really
 *    ended (all of them unless told);
 * 3. everyone's grant stops working and open attendance is closed;
 * 4. `meeting.ended` tells the rest of the process (the room tells its people, a broadcast stops);
 * 5. the Janus rooms are destroyed and the placements forgotten.
 */
export async function endMeetings<Result = void>(
  context: AppContext,
  meetingIds: number[],
  reason: MeetingEndReason,
  alongside?: () => Promise<Result>,
  endedOf: (result: Result) => number[] = () => meetingIds,
): Promise<Result> {
  const placements = await context.media.placementsOf(meetingIds);
  const result = (await alongside?.()) as Result;
  const ended = [...new Set(endedOf(result))].filter((id) => meetingIds.includes(id));
  if (ended.length === 0) return result;
  const now = new Date();
  await context.db
    .update(roomParticipants)
    .set({ state: 'left', updatedAt: now })
    .where(and(inArray(roomParticipants.meetingId, ended), inArray(roomParticipants.state, ['admitted', 'lobby'])));
  await closeOpenAttendance(context.db, ended, now);
  await context.events.emit('meeting.ended', { meetingIds: ended, reason });
  for (const meetingId of ended) {
    await context.media.destroyPlaced(
      meetingId,
      placements.find((placement) => placement.meetingId === meetingId),
    );
  }
  return result;
}

/**
 * The live session is over because the host ended it or everyone left. An instant or non-repeating
 * meeting is ended for good; a repeating one goes back to scheduled. Answers whether it is over.
 */
export async function finishSession(context: AppContext, meeting: MeetingRow, reason: 'host' | 'empty') {
  const now = new Date();
  const isInstant = meeting.isSchedule === SCHEDULE_FLAG.instant;
  const isOver = isInstant || (meeting.repeat === REPEAT.none && (reason === 'host' || meeting.endTime < now));
  await endMeetings(context, [meeting.id], reason, () =>
    new MeetingRepository(context.db).closeSession(meeting.id, isOver ? 'ended' : 'scheduled', now),
  );
  return isOver;
}
