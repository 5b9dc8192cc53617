import { and, broadcastDestinations, eq, inArray, type DestinationRow } from '@meetcast/db';
import type { AppContext } from '../../context.js';
import { announceBroadcast } from './broadcast-state.js';
import {
  destinationSourcesOf,
  IllegalTransitionError,
  RUNNING_DESTINATION_STATES,
  type DestinationState,
} from './transitions.js';

type NewDestination = Omit<typeof broadcastDestinations.$inferInsert, 'broadcastId' | 'id'>;
/** What a destination shows besides its state: its last error, figures and the platform's ids. */
export type DestinationValues = Partial<
  Pick<
    DestinationRow,
    'error' | 'bitrateKbps' | 'fps' | 'health' | 'viewers' | 'externalBroadcastId' | 'externalStreamId'
  >
>;
/** The broadcast a destination belongs to: every write names it, and announces it. */
export interface BroadcastRef {
  id: number;
  meetingId: number;
}

/**
 * The one place that writes `broadcast_destinations` (ADR 020), with the same rule as
 * broadcast-state.ts: conditional writes, illegal moves refused, one announcement per committed change.
 */

/**
 * Adds a destination to a running broadcast. One already there and running is answered as it is;
 * one removed, ended or failed is replaced by a new row (a new id), so the composer ends the old
 * push if it still runs and starts a fresh one, and a platform gets a fresh broadcast (YouTube
 * cannot reuse a complete one).
 */
export async function addDestination(
  context: AppContext,
  broadcast: BroadcastRef,
  values: NewDestination & { connectionId: number },
) {
  const row = await context.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(broadcastDestinations)
      .where(
        and(
          eq(broadcastDestinations.broadcastId, broadcast.id),
          eq(broadcastDestinations.connectionId, values.connectionId),
        ),
      );
    if (existing && !existing.removed && RUNNING_DESTINATION_STATES.includes(existing.state)) return existing;
    if (existing) await tx.delete(broadcastDestinations).where(eq(broadcastDestinations.id, existing.id));
    const [created] = await tx
      .insert(broadcastDestinations)
      .values({ ...values, broadcastId: broadcast.id })
      .returning();
    return created!;
  });
  await announceBroadcast(context, broadcast);
  return row;
}

/** The host takes a destination off: its composer ends the push. Undefined when it was not there. */
export async function removeDestination(context: AppContext, broadcast: BroadcastRef, connectionId: number) {
  const [row] = await context.db
    .update(broadcastDestinations)
    .set({ removed: true, updatedAt: new Date() })
    .where(
      and(
        eq(broadcastDestinations.broadcastId, broadcast.id),
        eq(broadcastDestinations.connectionId, connectionId),
        eq(broadcastDestinations.removed, false),
      ),
    )
    .returning();
  if (row) await announceBroadcast(context, broadcast);
  return row;
}

/**
 * Moves a destination to `to` if its state allows it: the row as written, or undefined. Staying in
 * a running state (a second failed attempt while `starting`) only updates the values. Only `ended`
 * is reached by a destination the host removed.
 */
export async function moveDestination(
  context: AppContext,
  broadcast: BroadcastRef,
  id: number,
  to: DestinationState,
  values: DestinationValues = {},
) {
  const sources = destinationSourcesOf(to);
  const from = RUNNING_DESTINATION_STATES.includes(to) ? [...sources, to] : sources;
  const [row] = await context.db
    .update(broadcastDestinations)
    .set({ ...values, state: to, updatedAt: new Date() })
    .where(
      and(
        eq(broadcastDestinations.id, id),
        eq(broadcastDestinations.broadcastId, broadcast.id),
        inArray(broadcastDestinations.state, from),
        to === 'ended' ? undefined : eq(broadcastDestinations.removed, false),
      ),
    )
    .returning();
  if (row) await announceBroadcast(context, broadcast);
  return row;
}

/** moveDestination for a caller to whom an illegal move is a defect. */
export async function requireDestinationMove(
  context: AppContext,
  broadcast: BroadcastRef,
  id: number,
  to: DestinationState,
  values?: DestinationValues,
) {
  const row = await moveDestination(context, broadcast, id, to, values);
  if (!row) throw new IllegalTransitionError('broadcast_destinations', id, to);
  return row;
}

/** A running destination's error, figures or platform ids; undefined once it has ended or failed. */
export async function changeRunningDestination(
  context: AppContext,
  broadcast: BroadcastRef,
  id: number,
  values: DestinationValues,
) {
  const [row] = await context.db
    .update(broadcastDestinations)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(broadcastDestinations.id, id),
        eq(broadcastDestinations.broadcastId, broadcast.id),
        inArray(broadcastDestinations.state, RUNNING_DESTINATION_STATES),
      ),
    )
    .returning();
  if (row) await announceBroadcast(context, broadcast);
  return row;
}

/** The broadcast ended: every destination still running ends with it (a failed one stays failed). */
export async function endRunningDestinations(context: AppContext, broadcast: BroadcastRef) {
  const rows = await context.db
    .update(broadcastDestinations)
    .set({ state: 'ended', bitrateKbps: null, fps: null, updatedAt: new Date() })
    .where(
      and(
        eq(broadcastDestinations.broadcastId, broadcast.id),
        inArray(broadcastDestinations.state, RUNNING_DESTINATION_STATES),
      ),
    )
    .returning({ id: broadcastDestinations.id });
  if (rows.length > 0) await announceBroadcast(context, broadcast);
  return rows.length;
}
