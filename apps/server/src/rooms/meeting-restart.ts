import { SCHEDULE_FLAG } from '@meetcast/contracts';
import type { UserRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { conflict, gone, notFound } from '../http/app-error.js';
import { MeetingRepository } from '../meeting-records/meeting-repository.js';
import type { MeetingRow } from './grants.js';

/**
 * An instant meeting's link is the host's reusable room, as in Meet and Zoom personal rooms: once its
 * session is over (everyone left, the host ended it for all, or an administrator ended it), the owner
 * opening the link starts it again and everyone else waits for them. A scheduled meeting that is over
 * stays over, and a cancelled meeting of either kind stays gone (ARCHITECTURE.md, "Meeting rooms").
 */
export function isWaitingForHost(meeting: MeetingRow): boolean {
  return meeting.isSchedule === SCHEDULE_FLAG.instant && meeting.state === 'ended';
}

/**
 * A meeting whose room page can be shown: open ones, and instant ones waiting for their host (404 /
 * 410 else), with the host's name the page shows.
 */
export async function requireReachableMeeting(
  context: AppContext,
  meetId: string,
): Promise<{ meeting: MeetingRow; hostName: string | null }> {
  const found = await new MeetingRepository(context.db).findBySlugWithHostName(meetId);
  if (!found) throw notFound('room.not_found');
  const { meeting } = found;
  if (!isWaitingForHost(meeting) && (meeting.state === 'ended' || meeting.state === 'cancelled')) {
    throw gone('room.ended');
  }
  return found;
}

/**
 * Before anyone joins: the owner's arrival reopens their instant meeting as a fresh session (it goes
 * live when their room connection opens, as a new meeting does); anyone else is told to wait (409), and
 * the room page keeps asking until the host is back.
 */
export async function reopenForOwner(
  context: AppContext,
  meeting: MeetingRow,
  user: UserRow | undefined,
): Promise<MeetingRow> {
  if (!isWaitingForHost(meeting)) return meeting;
  if (user?.id !== meeting.hostId) throw conflict('room.waiting_for_host');
  const reopened = await new MeetingRepository(context.db).reopen(meeting.id);
  // The owner's other tab may have reopened it a moment ago: take the meeting as it is now.
  return reopened ?? (await requireReachableMeeting(context, meeting.slug)).meeting;
}
