import type { Broadcast } from '@meetcast/contracts';

/**
 * How long a past broadcast was on air, in seconds: from going live to its end, not the scheduled
 * times (a show often starts late or runs over). None when it never went live or has not ended.
 */
export function broadcastDuration(broadcast: Pick<Broadcast, 'started_at' | 'ended_at'>): number | undefined {
  const { started_at: started, ended_at: ended } = broadcast;
  if (started === null || ended === null || ended <= started) return undefined;
  return ended - started;
}
