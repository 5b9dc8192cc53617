import { temporarilyUnavailable } from '../http/app-error.js';
import type { Redis } from 'ioredis';

export interface RateLimitRule {
  /** Distinguishes the counters of one rule from another's. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Fixed-window counters: in memory for one process, in Redis when several processes share limits. */
export interface RateLimiter {
  hit(rule: RateLimitRule, key: string): Promise<RateLimitVerdict>;
  reset(rule: RateLimitRule, key: string): Promise<void>;
}

function verdict(count: number, limit: number, windowEndsAt: number, now: number): RateLimitVerdict {
  return {
    allowed: count <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEndsAt - now) / 1000)),
  };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly multiplier = 1) {}

  async hit(rule: RateLimitRule, key: string) {
    const now = Date.now();
    const id = `${rule.name}:${key}`;
    let window = this.windows.get(id);
    if (!window || window.endsAt <= now) {
      if (this.windows.size > 50_000) this.sweep(now);
      window = { count: 0, endsAt: now + rule.windowSeconds * 1000 };
      this.windows.set(id, window);
    }
    window.count += 1;
    return verdict(window.count, Math.ceil(rule.limit * this.multiplier), window.endsAt, now);
  }

  async reset(rule: RateLimitRule, key: string) {
    this.windows.delete(`${rule.name}:${key}`);
  }

  private sweep(now: number) {
    for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
  }
}

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly multiplier = 1,
  ) {}

  /**
   * Fails closed: while Redis is away no limited call goes through (503 with Retry-After) rather
   * than falling back to per-process counters, which would multiply every limit by the number of
   * processes exactly when an attacker may have caused the outage. See docs/decisions/008.
   */
  async hit(rule: RateLimitRule, key: string) {
    const id = `${this.prefix}:rate:${rule.name}:${key}`;
    if (this.redis.status !== 'ready') throw temporarilyUnavailable();
    const result = await this.redis
      .multi()
      .incr(id)
      .pexpire(id, rule.windowSeconds * 1000, 'NX')
      .pttl(id)
      .exec()
      .catch(() => {
        throw temporarilyUnavailable();
      });
    const count = Number(result?.[0]?.[1] ?? 0);
    const ttl = Number(result?.[2]?.[1] ?? rule.windowSeconds * 1000);
    const now = Date.now();
    return verdict(count, Math.ceil(rule.limit * this.multiplier), now + Math.max(ttl, 0), now);
  }

  async reset(rule: RateLimitRule, key: string) {
    // Best effort: a counter that outlives an outage only makes its window end as planned.
    await this.redis.del(`${this.prefix}:rate:${rule.name}:${key}`).catch(() => undefined);
  }
}
