import type { BroadcastChapterKind, BroadcastLayout } from '@meetcast/contracts';
import { and, asc, broadcastChapters, eq, inArray, liveBroadcasts, type BroadcastRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { chapterList } from './broadcast-chapter-list.js';

/**
 * A chapter of a running broadcast's replay (ADR 048), stamped now; its offset from the start is
 * also kept when the broadcast has started (a change while it is still starting counts as 0).
 */
export async function recordChapter(
  context: AppContext,
  broadcast: Pick<BroadcastRow, 'id' | 'startedAt'>,
  kind: BroadcastChapterKind,
  layout: BroadcastLayout | null = null,
) {
  const at = new Date();
  const offsetSeconds = broadcast.startedAt ? Math.max(0, (at.getTime() - broadcast.startedAt.getTime()) / 1000) : 0;
  await context.db.insert(broadcastChapters).values({ broadcastId: broadcast.id, kind, layout, at, offsetSeconds });
}

/**
 * Someone in a meeting started or stopped sharing a screen (the room says so): a chapter of the
 * meeting's running broadcast when that person is on its stage (backstage is not on the stream).
 */
export async function recordScreenShare(
  context: AppContext,
  event: { meetingId: number; participantId: string; isSharing: boolean },
) {
  const [broadcast] = await context.db
    .select()
    .from(liveBroadcasts)
    .where(and(eq(liveBroadcasts.meetingId, event.meetingId), inArray(liveBroadcasts.state, ['starting', 'live'])));
  if (!broadcast?.onStage.includes(event.participantId)) return;
  await recordChapter(context, broadcast, event.isSharing ? 'screen_share_start' : 'screen_share_stop');
}

/** The chapters of a recorded broadcast, for its replay; none before it started. */
export async function chaptersOf(context: AppContext, broadcast: BroadcastRow) {
  if (!broadcast.startedAt || !broadcast.recordingSeconds) return [];
  const rows = await context.db
    .select({ kind: broadcastChapters.kind, layout: broadcastChapters.layout, at: broadcastChapters.at })
    .from(broadcastChapters)
    .where(eq(broadcastChapters.broadcastId, broadcast.id))
    .orderBy(asc(broadcastChapters.at));
  return chapterList(rows, broadcast.startedAt, broadcast.recordingSeconds);
}
