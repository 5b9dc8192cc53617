import type { BroadcastReminder } from '@meetcast/contracts';
import {
  and,
  broadcastReminders,
  channels,
  eq,
  inArray,
  isNull,
  liveBroadcasts,
  meetings,
  type UserRow,
} from '@meetcast/db';
import type { AppContext } from '../context.js';
import { conflict, notFound } from '../http/app-error.js';
import { isOpenMeeting } from './channel-queries.js';

/**
 * The channel broadcast a signed-in viewer may ask to be told about: a meeting of a channel that is
 * not hidden, open to anyone (public, no password), not cancelled. Anything else is the same 404 as
 * a meeting that does not exist, so the call tells nobody what is there.
 */
async function remindableBroadcast(context: AppContext, meetId: string) {
  const [found] = await context.db
    .select({ meeting: meetings, channel: channels })
    .from(meetings)
    .innerJoin(channels, eq(channels.id, meetings.channelId))
    .where(and(eq(meetings.slug, meetId.trim().toLowerCase()), isNull(channels.hiddenAt)))
    .limit(1);
  if (!found || found.meeting.state === 'cancelled' || !isOpenMeeting(found.meeting)) {
    throw notFound('channels.unavailable');
  }
  return found;
}

async function reminderOf(context: AppContext, meetingId: number, userId: number): Promise<BroadcastReminder> {
  const [row] = await context.db
    .select({ notifiedAt: broadcastReminders.notifiedAt })
    .from(broadcastReminders)
    .where(and(eq(broadcastReminders.meetingId, meetingId), eq(broadcastReminders.userId, userId)));
  return { is_set: Boolean(row), is_sent: Boolean(row?.notifiedAt) };
}

/** Whether the caller asked to be told when this broadcast goes live (and whether they were). */
export async function getBroadcastReminder(context: AppContext, user: UserRow, meetId: string) {
  const { meeting } = await remindableBroadcast(context, meetId);
  return reminderOf(context, meeting.id, user.id);
}

/**
 * "Notify me" on (a scheduled broadcast that has not started: later is too late, 409) or off (at any
 * time). Asking twice is asking once.
 */
export async function setBroadcastReminder(context: AppContext, user: UserRow, meetId: string, isOn: boolean) {
  const { meeting, channel } = await remindableBroadcast(context, meetId);
  if (!isOn) {
    await context.db
      .delete(broadcastReminders)
      .where(and(eq(broadcastReminders.meetingId, meeting.id), eq(broadcastReminders.userId, user.id)));
    return reminderOf(context, meeting.id, user.id);
  }
  const [running] = await context.db
    .select({ id: liveBroadcasts.id })
    .from(liveBroadcasts)
    .where(and(eq(liveBroadcasts.meetingId, meeting.id), inArray(liveBroadcasts.state, ['starting', 'live'])))
    .limit(1);
  if (meeting.state !== 'scheduled' || running) throw conflict('channels.reminder_too_late');
  await context.db
    .insert(broadcastReminders)
    .values({ meetingId: meeting.id, channelId: channel.id, userId: user.id })
    .onConflictDoNothing();
  return reminderOf(context, meeting.id, user.id);
}
