import type { MeetingRow } from '@meetcast/db';

export type MeetingState = MeetingRow['state'];

/**
 * The meeting's state machine, the one place that says which state may follow which. Every write of
 * `meetings.state` goes through `MeetingRepository`, which puts `statesThatMayBecome(next)` into the
 * update's WHERE clause, so a transition that is not listed here changes nothing, even under races.
 *
 * - scheduled → live: the first admitted arrival (`markLive`).
 * - scheduled | live → ended: the session is over for good (instant or non-repeating meeting, or an
 *   administrator ended it); ended → ended again only moves `ended_at` (a teardown after the admin's end).
 * - live → scheduled: a repeating meeting's session is over and the series goes on; ended → scheduled:
 *   the owner reopens their instant meeting's link (`reopen`).
 * - scheduled | live | ended → cancelled: the host cancels the meeting, or their account is deleted.
 * - cancelled is final: nothing brings a cancelled meeting back.
 */
const NEXT_STATES: Record<MeetingState, readonly MeetingState[]> = {
  scheduled: ['live', 'ended', 'cancelled'],
  live: ['scheduled', 'ended', 'cancelled'],
  ended: ['scheduled', 'ended', 'cancelled'],
  cancelled: [],
};

export function mayBecome(from: MeetingState, next: MeetingState): boolean {
  return NEXT_STATES[from].includes(next);
}

/** The states a meeting may be in for `next` to follow (what the guarded update matches on). */
export function statesThatMayBecome(next: MeetingState): MeetingState[] {
  return (Object.keys(NEXT_STATES) as MeetingState[]).filter((from) => mayBecome(from, next));
}
