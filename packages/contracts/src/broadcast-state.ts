import { z } from 'zod';

/**
 * What the public sees of a channel meeting's broadcast, derived in ONE place (ADR 022) so the watch
 * page, the channel page's cards and lists and the studio never contradict each other:
 * - `upcoming`: nothing has been broadcast yet and the meeting's time has not passed;
 * - `live`: a broadcast is starting or on air (whatever the meeting's own state says);
 * - `replay`: the last broadcast ended and its recording can be played;
 * - `ended`: it is over and there is nothing to play (not recorded, failed, or the time passed unused).
 */
export const PUBLIC_BROADCAST_STATES = ['upcoming', 'live', 'replay', 'ended'] as const;
export const PublicBroadcastStateSchema = z.enum(PUBLIC_BROADCAST_STATES);
export type PublicBroadcastState = z.infer<typeof PublicBroadcastStateSchema>;

/** The state of a meeting's latest broadcast; `none` when it was never broadcast. */
export const LATEST_BROADCAST_STATES = ['none', 'starting', 'live', 'ended', 'failed'] as const;
export type LatestBroadcastState = (typeof LATEST_BROADCAST_STATES)[number];

export type BroadcastFacts = {
  /** The meeting's latest broadcast. */
  broadcast: LatestBroadcastState;
  /** Whether that broadcast's recording is finished and playable. */
  hasRecording: boolean;
  /** The meeting's own state: people may be in the room without a broadcast, and a host may leave. */
  meeting: 'scheduled' | 'live' | 'ended';
  /** Whether the meeting's scheduled end lies in the past. */
  scheduleOver: boolean;
};

export function publicBroadcastState(facts: BroadcastFacts): PublicBroadcastState {
  if (facts.broadcast === 'starting' || facts.broadcast === 'live') return 'live';
  // A recording is the truth of a past broadcast, even while the host is still in the room.
  if (facts.hasRecording && (facts.broadcast === 'ended' || facts.broadcast === 'failed')) return 'replay';
  if (facts.broadcast === 'ended' || facts.broadcast === 'failed') return 'ended';
  if (facts.meeting === 'ended' || facts.scheduleOver) return 'ended';
  return 'upcoming';
}

/** Order of a channel's lists: on air first, then what comes next, then what was. */
export const PUBLIC_STATE_ORDER: Record<PublicBroadcastState, number> = { live: 0, upcoming: 1, replay: 2, ended: 2 };
