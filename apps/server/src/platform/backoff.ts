/** How long retries wait: the first wait, multiplied by `factor` each time, never past `maxMs`. */
export interface BackoffSchedule {
  firstMs: number;
  maxMs: number;
  /** 2 doubles each wait (the default); 1 waits the same every time. */
  factor?: number;
}

/** The wait before retry number `retry` (1 for the first retry) under the schedule. */
export function backoffDelay(retry: number, { firstMs, maxMs, factor = 2 }: BackoffSchedule): number {
  // The exponent is bounded so that a long outage never computes Infinity.
  const steps = Math.min(Math.max(0, retry - 1), 32);
  return Math.min(maxMs, firstMs * factor ** steps);
}
