import { PASSWORD_FLAG, PRIVACY } from '@meetcast/contracts';
import { channels, eq, type MeetingRow, type BroadcastRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { notFound } from '../http/app-error.js';
import { findMeeting } from '../rooms/room-service.js';
import { latestPublicBroadcast } from '../streaming/broadcast-service.js';
import { canModerate, type ChatViewer } from './viewer-identity.js';

export interface ChatScope {
  meeting: MeetingRow;
  broadcast: BroadcastRow | undefined;
  viewer: ChatViewer;
  isModerator: boolean;
}

/**
 * Whether a meeting's viewer chat is public: the meeting is public without a password, and its
 * channel (if any) is not hidden by an administrator. The channel page shows nothing else.
 */
async function isPublic(context: AppContext, meeting: MeetingRow) {
  if (meeting.state === 'cancelled') return false;
  if (meeting.isPrivate !== PRIVACY.public || meeting.isPassword === PASSWORD_FLAG.yes) return false;
  if (!meeting.channelId) return true;
  const [channel] = await context.db
    .select({ hiddenAt: channels.hiddenAt })
    .from(channels)
    .where(eq(channels.id, meeting.channelId));
  return Boolean(channel) && !channel?.hiddenAt;
}

/**
 * The meeting, its latest broadcast and who is asking. A private or password-protected meeting's
 * chat is answered as unknown (404) to everyone but its moderators, so its existence is not told.
 */
export async function chatScope(
  context: AppContext,
  meetId: string,
  resolveViewer: (meeting: MeetingRow) => Promise<ChatViewer>,
): Promise<ChatScope> {
  const meeting = await findMeeting(context, meetId);
  if (!meeting) throw notFound('viewer_chat.unavailable');
  const viewer = await resolveViewer(meeting);
  const isModerator = await canModerate(context, meeting, viewer);
  if (!isModerator && !(await isPublic(context, meeting))) throw notFound('viewer_chat.unavailable');
  // No viewer chat while rehearsing (ADR 047): the chat follows the last public broadcast.
  return { meeting, broadcast: await latestPublicBroadcast(context, meeting.id), viewer, isModerator };
}

export const isRunning = (broadcast: BroadcastRow | undefined) =>
  broadcast?.state === 'starting' || broadcast?.state === 'live';

export const viewerChatRoom = (meetingId: number) => `viewer-chat:${meetingId}`;

/** The personal room of one viewer of one meeting's chat (an account or a guest's browser). */
export function viewerRoom(meetingId: number, author: { userId: number | null; guestId: string | null }) {
  return author.userId !== null
    ? `viewer-chat:${meetingId}:u:${author.userId}`
    : `viewer-chat:${meetingId}:g:${author.guestId}`;
}
