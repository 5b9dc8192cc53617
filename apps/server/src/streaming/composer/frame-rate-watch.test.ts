import { describe, expect, it } from 'vitest';
import { QUALITIES } from './capacity.js';
import { FrameRateWatch, type FrameReading } from './frame-rate-watch.js';

const [best, middle, lightest] = QUALITIES;

/** Readings a second apart, as `-stats_period 1` gives them, delivering `rates[i]` new pictures in second i. */
function readings(rates: number[], dupPerSecond = 0): FrameReading[] {
  let frame = 0;
  let dupFrames = 0;
  const at0 = 1_700_000_000_000;
  return [
    { frame, dupFrames, at: at0 },
    ...rates.map((rate, second) => {
      frame += rate + dupPerSecond;
      dupFrames += dupPerSecond;
      // ffmpeg's blocks come a little late or early; the rate is per real elapsed time.
      return { frame, dupFrames, at: at0 + (second + 1) * 1000 + (second % 2 === 0 ? 37 : -21) };
    }),
  ];
}

const run = (watch: FrameRateWatch, series: FrameReading[]) =>
  series.map((reading) => watch.observe(reading)).find((step) => step !== undefined);

describe('the frame-rate watch', () => {
  it('keeps the quality while the encode delivers its frame rate, through a short dip', () => {
    const watch = new FrameRateWatch(best!);
    expect(run(watch, readings([30, 30, 29, 18, 17, 30, 30, 29, 30, 30, 30, 30]))).toBeUndefined();
    expect(watch.delivered).toBeGreaterThan(28);
  });

  it('steps 720p30 down to 720p24 after six seconds under 27 fps, and only once', () => {
    const watch = new FrameRateWatch(best!);
    const series = readings([30, 30, 20, 19, 21, 18, 20, 19, 20, 20, 19, 18]);
    const steps = series.map((reading) => watch.observe(reading));
    const at = steps.findIndex((step) => step !== undefined);
    expect(steps[at]?.name).toBe('720p24');
    // Low from second 3: the step comes at second 8 or 9 (readings jitter), not before.
    expect(at).toBeGreaterThanOrEqual(8);
    expect(at).toBeLessThanOrEqual(9);
    expect(steps.filter((step) => step !== undefined)).toHaveLength(1);
  });

  it('counts the frames ffmpeg repeated as missing: 30 out, 12 of them repeats, is 18 fps', () => {
    const watch = new FrameRateWatch(best!);
    expect(
      run(
        watch,
        readings(
          Array.from({ length: 9 }, () => 18),
          12,
        ),
      )?.name,
    ).toBe('720p24');
    // The last second measured 1.058 s of wall clock: 18 pictures in it.
    expect(watch.delivered).toBeCloseTo(18 / 1.058, 1);
  });

  it('steps 720p24 to the lightest, and the lightest nowhere', () => {
    expect(run(new FrameRateWatch(middle!), readings(Array.from({ length: 9 }, () => 15)))?.name).toBe(lightest!.name);
    expect(run(new FrameRateWatch(lightest!), readings(Array.from({ length: 9 }, () => 15)))).toBeUndefined();
  });
});
