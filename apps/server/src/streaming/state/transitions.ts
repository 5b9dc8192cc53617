import type { BROADCAST_DESTINATION_STATES, LIVE_BROADCAST_STATES } from '@meetcast/db';

export type BroadcastState = (typeof LIVE_BROADCAST_STATES)[number];
export type DestinationState = (typeof BROADCAST_DESTINATION_STATES)[number];

/**
 * Where a broadcast may go from each state (ADR 020). `ended` and `failed` are final: a stopped
 * broadcast is never brought back, a new one is started. A broadcast whose composer dies stays `live`
 * while another takes it over; its destinations say `reconnecting` meanwhile.
 */
export const BROADCAST_TRANSITIONS: Record<BroadcastState, readonly BroadcastState[]> = {
  starting: ['live', 'ended', 'failed'],
  live: ['ended', 'failed'],
  ended: [],
  failed: [],
};

/**
 * A destination's own life inside its broadcast. It leaves `live` only to reconnect, to end (the
 * broadcast ended or the host removed it) or to fail when the platform refused its key or grant.
 * `ended` and `failed` come back to `starting` only when the host adds it again (Retry).
 */
export const DESTINATION_TRANSITIONS: Record<DestinationState, readonly DestinationState[]> = {
  starting: ['live', 'reconnecting', 'ended', 'failed'],
  live: ['reconnecting', 'ended', 'failed'],
  reconnecting: ['live', 'ended', 'failed'],
  ended: ['starting'],
  failed: ['starting'],
};

export const RUNNING_BROADCAST_STATES: BroadcastState[] = ['starting', 'live'];
export const RUNNING_DESTINATION_STATES: DestinationState[] = ['starting', 'live', 'reconnecting'];

/** The states from which `to` may be reached: what a conditional write puts in its WHERE. */
export function sourcesOf<State extends string>(table: Record<State, readonly State[]>, to: State): State[] {
  return (Object.keys(table) as State[]).filter((from) => table[from].includes(to));
}

export const broadcastSourcesOf = (to: BroadcastState) => sourcesOf(BROADCAST_TRANSITIONS, to);
export const destinationSourcesOf = (to: DestinationState) => sourcesOf(DESTINATION_TRANSITIONS, to);

/** A write asked for a move its row's state does not allow (or the row is gone). */
export class IllegalTransitionError extends Error {
  constructor(
    readonly table: 'live_broadcasts' | 'broadcast_destinations',
    readonly id: number,
    readonly to: string,
  ) {
    super(`${table} ${id}: no legal move to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}
