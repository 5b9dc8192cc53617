import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runPeriodically } from './periodic.js';

/** A job whose runs end only when the test says so. */
function controlledJob() {
  const finishers: (() => void)[] = [];
  const run = vi.fn(() => new Promise<void>((resolve) => finishers.push(resolve)));
  return { run, finishCurrent: () => finishers.shift()?.() };
}

describe('runPeriodically', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once per period', async () => {
    const run = vi.fn(async () => undefined);
    const job = runPeriodically(run, { everyMs: 1000, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(3500);
    expect(run).toHaveBeenCalledTimes(3);
    await job.stop();
  });

  it('does not start a run while the previous one is still going', async () => {
    const { run, finishCurrent } = controlledJob();
    const job = runPeriodically(run, { everyMs: 1000, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(5500);
    expect(run).toHaveBeenCalledTimes(1);
    finishCurrent();
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    finishCurrent();
    await job.stop();
  });

  it('stop waits for the running one and starts no other', async () => {
    const { run, finishCurrent } = controlledJob();
    const job = runPeriodically(run, { everyMs: 1000, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finishCurrent();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('reports a failed run and keeps going', async () => {
    const errors: unknown[] = [];
    const run = vi.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValue(undefined);
    const job = runPeriodically(run, { everyMs: 1000, onError: (error) => errors.push(error) });
    await vi.advanceTimersByTimeAsync(2000);
    expect(errors).toEqual([new Error('boom')]);
    expect(run).toHaveBeenCalledTimes(2);
    await job.stop();
  });

  it('runNow shares the run in progress instead of starting another', async () => {
    const { run, finishCurrent } = controlledJob();
    const job = runPeriodically(run, { everyMs: 60_000, onError: () => undefined });
    const first = job.runNow();
    const second = job.runNow();
    expect(run).toHaveBeenCalledTimes(1);
    finishCurrent();
    await Promise.all([first, second]);
    await job.stop();
  });
});
