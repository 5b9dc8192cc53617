import type { AppContext } from '../../context.js';
import {
  changeRunningDestination,
  moveDestination,
  type BroadcastRef,
  type DestinationValues,
} from '../state/destination-state.js';
import type { DestinationState } from '../state/transitions.js';
import type { Pusher } from './pusher.js';
import type { DestinationRow } from '@meetcast/db';

/** One destination a broadcast session pushes to, with its row as last written. */
export interface RunningDestination {
  row: DestinationRow;
  pusher: Pusher | undefined;
  /** The platform's answer to `prepare`; the pusher starts once this and the encode are there. */
  ingestUrl: string | undefined;
  isLive: boolean;
  lastStatusAt: number;
}

/**
 * A session's writes of its destinations, all through the state owner (ADR 020): each keeps the
 * row it wrote, so the next write and the platform's next call see the latest.
 */
export class DestinationWriter {
  constructor(
    private readonly context: AppContext,
    private readonly broadcast: BroadcastRef,
    private readonly log: (message: string, extra: Record<string, unknown>) => void,
  ) {}

  async move(running: RunningDestination, to: DestinationState, values: DestinationValues) {
    const row = await moveDestination(this.context, this.broadcast, running.row.id, to, values);
    if (row) running.row = row;
    else this.log(`destination not moved to ${to} (its state does not allow it)`, { destinationId: running.row.id });
  }

  async write(running: RunningDestination, values: DestinationValues) {
    if (Object.keys(values).length === 0) return;
    const row = await changeRunningDestination(this.context, this.broadcast, running.row.id, values);
    if (row) running.row = row;
  }

  /** Figures are written (and announced) only when one moved, not at every tick. */
  async writeIfMoved(running: RunningDestination, values: DestinationValues) {
    const current = running.row as DestinationValues;
    const keys = Object.keys(values) as (keyof DestinationValues)[];
    if (keys.some((key) => values[key] !== current[key])) await this.write(running, values);
  }
}
