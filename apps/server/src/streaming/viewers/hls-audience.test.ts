import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HLS_VIEWER_WINDOW_MS, MemoryHlsAudience, RedisHlsAudience, type HlsAudience } from './hls-audience.js';

const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
// The audience skips Redis while it is not ready (a count is a courtesy): wait until it is.
beforeAll(
  () => new Promise((resolve) => (redis.status === 'ready' ? resolve(undefined) : redis.once('ready', resolve))),
);
afterAll(() => redis.quit());

const audiences: [string, () => HlsAudience][] = [
  ['memory', () => new MemoryHlsAudience()],
  ['redis', () => new RedisHlsAudience(redis, `test-hls-${process.pid}-${Date.now()}`)],
];

describe.each(audiences)('HLS audience (%s)', (_name, create) => {
  it('counts each address and browser once, per broadcast, while its player keeps asking', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const audience = create();
      // Only an arrival is news for the pages' pushed viewer count, not each playlist refresh.
      expect(await audience.seen(1, '203.0.113.5', 'Firefox')).toBe(true);
      expect(await audience.seen(1, '203.0.113.5', 'Firefox')).toBe(false);
      await audience.seen(1, '203.0.113.5', 'Chromium');
      await audience.seen(1, '198.51.100.7', 'Firefox');
      await audience.seen(2, '203.0.113.5', 'Firefox');
      expect(await audience.count(1)).toBe(3);
      expect(await audience.count(2)).toBe(1);
      expect(await audience.count(3)).toBe(0);

      // One player keeps refreshing its playlist, the others stopped: they have left.
      vi.advanceTimersByTime(HLS_VIEWER_WINDOW_MS - 1000);
      await audience.seen(1, '198.51.100.7', 'Firefox');
      vi.advanceTimersByTime(2000);
      expect(await audience.count(1)).toBe(1);
      expect(await audience.count(2)).toBe(0);
      // One who left and comes back arrives again.
      expect(await audience.seen(2, '203.0.113.5', 'Firefox')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
