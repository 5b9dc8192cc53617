import { describe, expect, it } from 'vitest';
import { SlowFrameWatch } from './slow-frames';

/** Feeds frames every `everyMs` for `forMs`, each taking `processingMs`; returns the first verdict that tripped. */
function feed(
  watch: SlowFrameWatch,
  from: number,
  forMs: number,
  everyMs: number,
  processingMs: (i: number) => number,
) {
  let i = 0;
  for (let at = from; at < from + forMs; at += everyMs, i += 1) {
    if (watch.record(at, processingMs(i))) return at;
  }
  return undefined;
}

describe('SlowFrameWatch', () => {
  it('never trips while frames take less than the interval', () => {
    const watch = new SlowFrameWatch({ frameIntervalMs: 40 });
    expect(feed(watch, 0, 60_000, 40, () => 25)).toBeUndefined();
  });

  it('tolerates a burst of slow frames shorter than the window', () => {
    const watch = new SlowFrameWatch({ frameIntervalMs: 40, windowMs: 5_000 });
    expect(feed(watch, 0, 10_000, 40, () => 20)).toBeUndefined();
    // Two seconds of slow frames (the model warming up, another tab busy), then fast again.
    expect(feed(watch, 10_000, 2_000, 100, () => 100)).toBeUndefined();
    expect(feed(watch, 12_000, 10_000, 40, () => 20)).toBeUndefined();
  });

  it('trips once processing stays slower than the interval for the whole window', () => {
    const watch = new SlowFrameWatch({ frameIntervalMs: 40, windowMs: 5_000 });
    // Slow frames come out at the processing pace, not the camera's.
    const trippedAt = feed(watch, 0, 20_000, 90, () => 90);
    expect(trippedAt).toBeGreaterThanOrEqual(5_000);
    expect(trippedAt).toBeLessThan(5_200);
  });

  it('does not judge before a whole window was seen, and starts over after reset', () => {
    const watch = new SlowFrameWatch({ frameIntervalMs: 40, windowMs: 5_000 });
    expect(feed(watch, 0, 4_000, 90, () => 90)).toBeUndefined();
    watch.reset();
    expect(feed(watch, 4_000, 4_900, 90, () => 90)).toBeUndefined();
  });

  it('counts a mix by its share of slow frames', () => {
    const watch = new SlowFrameWatch({ frameIntervalMs: 40, windowMs: 5_000, toleratedShare: 0.5 });
    // One frame in three over the interval: a slow moment now and then, not a slow device.
    expect(feed(watch, 0, 20_000, 40, (i) => (i % 3 === 0 ? 60 : 20))).toBeUndefined();
    expect(feed(watch, 20_000, 20_000, 40, (i) => (i % 3 === 0 ? 20 : 60))).toBeDefined();
  });
});
