import { and, broadcastDestinations, eq, inArray, liveBroadcasts, sql, type BroadcastRow } from '@meetcast/db';
import type { SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../meeting-records/meeting-repository.js';
import {
  broadcastSourcesOf,
  IllegalTransitionError,
  RUNNING_BROADCAST_STATES,
  type BroadcastState,
} from './transitions.js';

type NewDestination = Omit<typeof broadcastDestinations.$inferInsert, 'broadcastId' | 'id'>;
/** The columns a write may set besides the state, which only a move changes. */
export type BroadcastValues = Partial<
  Omit<typeof liveBroadcasts.$inferInsert, 'id' | 'meetingId' | 'startedBy' | 'state' | 'createdAt'>
>;

/**
 * The one place that writes `live_broadcasts` (ADR 020). Every write is one conditional UPDATE
 * whose WHERE names the states it may start from, so an illegal move changes nothing and says so;
 * every write that changed a row announces `broadcast.changed` once, after it is committed.
 */
export async function announceBroadcast(context: AppContext, row: { id: number; meetingId: number }) {
  await context.events.emit('broadcast.changed', { meetingId: row.meetingId, broadcastId: row.id });
}

/** A new broadcast and its first destinations, in one transaction that `beforeInsert` may refuse. */
export async function createBroadcast(
  context: AppContext,
  values: { meetingId: number; startedBy: number; record: boolean } & BroadcastValues,
  destinations: NewDestination[],
  beforeInsert: (tx: Executor) => Promise<void>,
): Promise<BroadcastRow> {
  const created = await context.db.transaction(async (tx) => {
    await beforeInsert(tx);
    const [row] = await tx.insert(liveBroadcasts).values(values).returning();
    if (!row) throw new Error('broadcast not stored');
    if (destinations.length > 0) {
      await tx.insert(broadcastDestinations).values(destinations.map((entry) => ({ ...entry, broadcastId: row.id })));
    }
    return row;
  });
  await announceBroadcast(context, created);
  return created;
}

/**
 * Moves a broadcast to `to` if its current state allows it (and `where`, if given, holds): the row
 * as written, or undefined when the move was not legal. A final state gets its end time.
 */
export async function moveBroadcast(
  context: AppContext,
  id: number,
  to: BroadcastState,
  values: BroadcastValues = {},
  where?: SQL,
): Promise<BroadcastRow | undefined> {
  const isFinal = to === 'ended' || to === 'failed';
  const [row] = await context.db
    .update(liveBroadcasts)
    .set({ ...values, state: to, updatedAt: new Date(), ...(isFinal ? { endedAt: values.endedAt ?? new Date() } : {}) })
    .where(and(eq(liveBroadcasts.id, id), inArray(liveBroadcasts.state, broadcastSourcesOf(to)), where))
    .returning();
  if (row) await announceBroadcast(context, row);
  return row;
}

/** moveBroadcast for a caller to whom an illegal move is a defect, not a lost race. */
export async function requireBroadcastMove(
  context: AppContext,
  id: number,
  to: BroadcastState,
  values?: BroadcastValues,
) {
  const row = await moveBroadcast(context, id, to, values);
  if (!row) throw new IllegalTransitionError('live_broadcasts', id, to);
  return row;
}

/**
 * Changes a running broadcast without moving it (stop asked for, overlay, its composer and
 * quality); `where` narrows it further (a claim names the composer it replaces). Undefined when it
 * is no longer running.
 */
export async function changeRunningBroadcast(
  context: AppContext,
  id: number,
  values: BroadcastValues,
  where?: SQL,
): Promise<BroadcastRow | undefined> {
  const [row] = await context.db
    .update(liveBroadcasts)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(liveBroadcasts.id, id), inArray(liveBroadcasts.state, RUNNING_BROADCAST_STATES), where))
    .returning();
  if (row) await announceBroadcast(context, row);
  return row;
}

/**
 * "Go live" after a rehearsal (ADR 047): one conditional UPDATE clears `rehearsal` where it is still
 * set on a running broadcast, adds the recording if asked (never takes it off) and restarts
 * `started_at` (if the composer set it already: else it sets it when the encode runs), then the
 * destinations are inserted in the same transaction. Undefined when it was not a running rehearsal:
 * a second click changes nothing.
 */
export async function goLiveBroadcast(
  context: AppContext,
  id: number,
  values: { record: boolean },
  destinations: NewDestination[],
): Promise<BroadcastRow | undefined> {
  const now = new Date();
  const row = await context.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(liveBroadcasts)
      .set({
        rehearsal: false,
        ...(values.record ? { record: true } : {}),
        startedAt: sql`case when ${liveBroadcasts.startedAt} is null then null else now() end`,
        updatedAt: now,
      })
      .where(
        and(
          eq(liveBroadcasts.id, id),
          eq(liveBroadcasts.rehearsal, true),
          inArray(liveBroadcasts.state, RUNNING_BROADCAST_STATES),
        ),
      )
      .returning();
    if (!updated) return undefined;
    if (destinations.length > 0) {
      await tx.insert(broadcastDestinations).values(destinations.map((entry) => ({ ...entry, broadcastId: id })));
    }
    return updated;
  });
  if (row) await announceBroadcast(context, row);
  return row;
}

/**
 * The composer's heartbeat on the broadcasts it runs. Bookkeeping between workers, not a change
 * anyone is shown: it is the one write that announces nothing.
 */
export async function beatComposerHeart(context: AppContext, ids: number[], composerId: string) {
  if (ids.length === 0) return;
  await context.db
    .update(liveBroadcasts)
    .set({ composerHeartbeatAt: new Date() })
    .where(
      and(
        inArray(liveBroadcasts.id, ids),
        eq(liveBroadcasts.composerId, composerId),
        inArray(liveBroadcasts.state, RUNNING_BROADCAST_STATES),
      ),
    );
}

/**
 * The recording of a broadcast that has ended: its composer finishes the file after the broadcast
 * ended (the stop answers at once), then names it here.
 */
export async function attachRecording(context: AppContext, id: number, recording: { file: string; seconds: number }) {
  const [row] = await context.db
    .update(liveBroadcasts)
    .set({ recordingFile: recording.file, recordingSeconds: recording.seconds, updatedAt: new Date() })
    .where(and(eq(liveBroadcasts.id, id), inArray(liveBroadcasts.state, ['ended', 'failed'])))
    .returning();
  if (row) await announceBroadcast(context, row);
  return row;
}

/**
 * Puts one participant on a running broadcast's stage or takes them off (ADR 045), in one UPDATE
 * that edits the stored list itself: two hosts moving two people at once both count. Undefined
 * when the broadcast is no longer running.
 */
export async function setOnStage(context: AppContext, id: number, participantId: string, onStage: boolean) {
  const without = sql`array_remove(${liveBroadcasts.onStage}, ${participantId}::text)`;
  const [row] = await context.db
    .update(liveBroadcasts)
    .set({
      onStage: onStage ? sql`array_append(${without}, ${participantId}::text)` : without,
      updatedAt: new Date(),
    })
    .where(and(eq(liveBroadcasts.id, id), inArray(liveBroadcasts.state, RUNNING_BROADCAST_STATES)))
    .returning();
  if (row) await announceBroadcast(context, row);
  return row;
}
