import { PASSWORD_FLAG, PRIVACY } from '@meetcast/contracts';
import { and, eq, inArray, liveBroadcasts, meetings } from '@meetcast/db';
import type { AppContext } from '../../context.js';

/** Whether anyone may watch a meeting's broadcast from its channel page: public, without password. */
export const isOpenToViewers = (meeting: { isPrivate: number; isPassword: number }) =>
  meeting.isPrivate !== PRIVACY.private && meeting.isPassword !== PASSWORD_FLAG.yes;

/**
 * Of these broadcasts, the ones the public may watch right now: running, of a meeting that is
 * public and has no password now. Asked on every playlist, every viewer connection and regularly
 * for the open ones, so that a meeting made private ends its public audience at once.
 */
export async function watchableBroadcasts(context: AppContext, ids: number[]) {
  return runningBroadcasts(context, ids, { isPublicOnly: true });
}

/**
 * Of these broadcasts, the ones running now (with `isPublicOnly`, only those of a meeting open to
 * viewers, and no rehearsal). The studio's preview (ADR 047) watches a running broadcast whatever its meeting's visibility.
 */
export async function runningBroadcasts(context: AppContext, ids: number[], options: { isPublicOnly: boolean }) {
  if (ids.length === 0) return new Map<number, { meetingId: number }>();
  const rows = await context.db
    .select({
      id: liveBroadcasts.id,
      meetingId: liveBroadcasts.meetingId,
      isPrivate: meetings.isPrivate,
      isPassword: meetings.isPassword,
      rehearsal: liveBroadcasts.rehearsal,
    })
    .from(liveBroadcasts)
    .innerJoin(meetings, eq(meetings.id, liveBroadcasts.meetingId))
    .where(and(inArray(liveBroadcasts.id, ids), inArray(liveBroadcasts.state, ['starting', 'live'])));
  // A rehearsal (ADR 047) is the studio's alone until "Go live": no HLS, no public grant or connection.
  const shown = options.isPublicOnly ? rows.filter((row) => isOpenToViewers(row) && !row.rehearsal) : rows;
  return new Map(shown.map((row) => [row.id, { meetingId: row.meetingId }]));
}
