import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicCache } from './public-cache.js';

/** A build the test finishes when it wants, counting how often it was started. */
function controlledBuild(subject: { meetingId?: number; broadcastId?: number }) {
  const finishes: ((value: string) => void)[] = [];
  const build = vi.fn(
    () =>
      new Promise<{ value: string; subject: typeof subject }>((resolve) => {
        finishes.push((value) => resolve({ value, subject }));
      }),
  );
  return { build, finish: (index: number, value: string) => finishes[index]!(value) };
}

describe('PublicCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('builds once for every request that comes while it builds, and serves it until its age', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new PublicCache<string, string>({ maxAgeMs: 1000, maxEntries: 10 });
    const { build, finish } = controlledBuild({ meetingId: 1, broadcastId: 10 });
    const answers = [cache.get('show', build), cache.get('show', build), cache.get('show', build)];
    finish(0, 'live');
    expect(await Promise.all(answers)).toEqual(['live', 'live', 'live']);
    vi.advanceTimersByTime(999);
    expect(await cache.get('show', build)).toBe('live');
    expect(build).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    const again = cache.get('show', build);
    finish(1, 'ended');
    expect(await again).toBe('ended');
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('drops what was built from a changed meeting or broadcast, and nothing else', async () => {
    const cache = new PublicCache<string, string>({ maxAgeMs: 60_000, maxEntries: 10 });
    const first = controlledBuild({ meetingId: 1, broadcastId: 10 });
    const other = controlledBuild({ meetingId: 2, broadcastId: 20 });
    const answers = [cache.get('first', first.build), cache.get('other', other.build)];
    first.finish(0, 'a');
    other.finish(0, 'b');
    await Promise.all(answers);

    cache.forget({ broadcastId: 10 });
    const rebuilt = cache.get('first', first.build);
    first.finish(1, 'a2');
    expect(await rebuilt).toBe('a2');
    expect(await cache.get('other', other.build)).toBe('b');
    cache.forget({ meetingId: 2 });
    const otherRebuilt = cache.get('other', other.build);
    other.finish(1, 'b2');
    expect(await otherRebuilt).toBe('b2');
    expect(first.build).toHaveBeenCalledTimes(2);
    expect(other.build).toHaveBeenCalledTimes(2);
  });

  it('drops a build still running at any change: it may have read before the change', async () => {
    const cache = new PublicCache<string, string>({ maxAgeMs: 60_000, maxEntries: 10 });
    const { build, finish } = controlledBuild({ meetingId: 1, broadcastId: 10 });
    const before = cache.get('show', build);
    // A change of another broadcast: the running build names its own only when it is done.
    cache.forget({ broadcastId: 99 });
    const after = cache.get('show', build);
    finish(0, 'read before the change');
    finish(1, 'read after the change');
    expect(await before).toBe('read before the change');
    expect(await after).toBe('read after the change');
    expect(await cache.get('show', build)).toBe('read after the change');
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('keeps no failure, and no more entries than its bound', async () => {
    const cache = new PublicCache<number, string>({ maxAgeMs: 60_000, maxEntries: 2 });
    const failing = vi.fn(() => Promise.reject(new Error('database away')));
    await expect(cache.get(1, failing)).rejects.toThrow('database away');
    await expect(cache.get(1, failing)).rejects.toThrow('database away');
    expect(failing).toHaveBeenCalledTimes(2);

    const build = (value: string) => () => Promise.resolve({ value, subject: {} });
    await cache.get(1, build('one'));
    await cache.get(2, build('two'));
    await cache.get(3, build('three'));
    expect(cache.size).toBe(2);
    // The oldest went first.
    expect(await cache.get(1, build('one again'))).toBe('one again');
    expect(await cache.get(3, build('not built'))).toBe('three');
  });
});
