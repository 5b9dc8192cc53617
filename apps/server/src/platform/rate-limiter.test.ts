import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './rate-limiter.js';

describe('MemoryRateLimiter', () => {
  const rule = { name: 'test', limit: 3, windowSeconds: 60 };

  it('allows up to the limit per key, then tells how long to wait', async () => {
    const limiter = new MemoryRateLimiter();
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await limiter.hit(rule, 'a'));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts[3]!.retryAfterSeconds).toBeGreaterThan(0);
    expect(verdicts[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await limiter.hit(rule, 'b')).allowed).toBe(true);
  });

  it('scales limits by the multiplier and forgets a key on reset', async () => {
    const limiter = new MemoryRateLimiter(2);
    for (let i = 0; i < 6; i++) expect((await limiter.hit(rule, 'k')).allowed).toBe(true);
    expect((await limiter.hit(rule, 'k')).allowed).toBe(false);
    await limiter.reset(rule, 'k');
    expect((await limiter.hit(rule, 'k')).allowed).toBe(true);
  });
});
