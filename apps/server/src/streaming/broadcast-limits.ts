import { inArray, isNull, liveBroadcasts, sql, type UserRow, type BroadcastRow } from '@meetcast/db';
import type { AppContext } from '../context.js';
import { AppError } from '../http/app-error.js';
import type { MessageKey } from '../i18n/messages.js';
import type { Executor } from '../meeting-records/meeting-repository.js';
import { meetingPresence } from '../rooms/room-presence.js';
import { changeRunningBroadcast, moveBroadcast } from './state/broadcast-state.js';

export interface ComposerCapacity {
  /** False when this process runs no worker and others may: capacity is then decided when one claims it. */
  isLocalOnly: boolean;
  hasRoom(): boolean;
  /** Tells every composer worker, in this process and the others, to look now. */
  nudge(): void;
  /** Resolves at the broadcast's next change wherever it was written, or after `ms`. */
  nextChange?(broadcastId: number, ms: number): Promise<void>;
}

type Running = Pick<BroadcastRow, 'id' | 'meetingId' | 'startedBy' | 'startedAt' | 'createdAt' | 'composerId'>;

const RUNNING_STATES: BroadcastRow['state'][] = ['starting', 'live'];
// Serializes going live, so that two starts at the same moment cannot both take the last slot.
const BROADCAST_SLOTS_LOCK_ID = 727_031;
/** How often every process looks for broadcasts to end (their longest life, nobody left in them). */
export const BROADCAST_LIMITS_CHECK_MS = 30_000;

async function runningBroadcasts(db: Executor): Promise<Running[]> {
  return db
    .select({
      id: liveBroadcasts.id,
      meetingId: liveBroadcasts.meetingId,
      startedBy: liveBroadcasts.startedBy,
      startedAt: liveBroadcasts.startedAt,
      createdAt: liveBroadcasts.createdAt,
      composerId: liveBroadcasts.composerId,
    })
    .from(liveBroadcasts)
    .where(inArray(liveBroadcasts.state, RUNNING_STATES));
}

/**
 * A broadcast's longest life counts from its encode's start (`started_at`), which "Go live" sets again
 * after a rehearsal (ADR 047): the rehearsal has a longest life of its own, and the show its whole one.
 */
const startOf = (row: Running) => (row.startedAt ?? row.createdAt).getTime();
const maxLifeMs = (context: AppContext) => context.config.broadcastLimits.maxMinutes * 60_000;

/**
 * No slot: 503 with Retry-After, and a message saying when one frees at the latest (the soonest of
 * these broadcasts reaches its longest life then; one stopped earlier frees it sooner).
 */
function noSlot(context: AppContext, key: MessageKey, holding: Running[], params: Record<string, number> = {}) {
  const soonest = Math.min(...holding.map((row) => startOf(row) + maxLifeMs(context)));
  const seconds = Number.isFinite(soonest) ? Math.max(60, Math.ceil((soonest - Date.now()) / 1000)) : 60;
  return new AppError(503, key, { ...params, count: Math.ceil(seconds / 60) }, { 'retry-after': String(seconds) });
}

/**
 * In the transaction that creates a broadcast: the account's own slots (BROADCAST_LIMIT_PER_ACCOUNT,
 * waiting ones count too), the installation's (BROADCAST_LIMIT_TOTAL), and this machine's composers
 * when they are the only ones. Holds the slots' lock until the transaction ends.
 */
export async function requireFreeSlot(context: AppContext, composers: ComposerCapacity, user: UserRow, tx: Executor) {
  await tx.execute(sql`select pg_advisory_xact_lock(${BROADCAST_SLOTS_LOCK_ID})`);
  const { perAccount, total } = context.config.broadcastLimits;
  const running = await runningBroadcasts(tx);
  const own = running.filter((row) => row.startedBy === user.id);
  if (own.length >= perAccount) throw noSlot(context, 'broadcasts.account_limit', own, { limit: perAccount });
  if ((total > 0 && running.length >= total) || (composers.isLocalOnly && !composers.hasRoom())) {
    throw noSlot(context, 'broadcasts.no_free_slot', running);
  }
}

/** Whether nobody has been in the broadcast's meeting for BROADCAST_IDLE_MINUTES. */
async function isFilmingNobody(context: AppContext, row: Running, now: number) {
  const idleMs = context.config.broadcastLimits.idleMinutes * 60_000;
  if (now - startOf(row) < idleMs) return false;
  const presence = await meetingPresence(context, row.meetingId);
  if (presence.isSomeoneIn) return false;
  return !presence.lastLeftAt || now - presence.lastLeftAt.getTime() >= idleMs;
}

/**
 * Ends the broadcasts that ran their longest life (BROADCAST_MAX_MINUTES) or film an empty meeting,
 * so that no slot is held forever. The composer running one ends it (its recording is finished); one
 * no composer took ends at once. Its notice says why.
 */
export async function endOverdueBroadcasts(context: AppContext, composers: ComposerCapacity, now = Date.now()) {
  let ended = 0;
  for (const row of await runningBroadcasts(context.db)) {
    const reason: MessageKey | undefined =
      now - startOf(row) >= maxLifeMs(context)
        ? 'broadcasts.ended_too_long'
        : (await isFilmingNobody(context, row, now))
          ? 'broadcasts.ended_empty'
          : undefined;
    if (!reason) continue;
    context.log.info({ broadcastId: row.id, reason }, 'broadcasts: ending by itself');
    // One no composer took ends at once; one a composer runs is ended by it (its recording is finished).
    const endedHere = row.composerId
      ? undefined
      : await moveBroadcast(
          context,
          row.id,
          'ended',
          { stopRequested: true, failure: reason, endedAt: new Date(now) },
          isNull(liveBroadcasts.composerId),
        );
    if (!endedHere) await changeRunningBroadcast(context, row.id, { stopRequested: true, failure: reason });
    ended += 1;
  }
  if (ended > 0) composers.nudge();
  return ended;
}
