import type { Redis } from 'ioredis';

/**
 * Short-lived marks of the viewer chat: slow-mode turns taken (by identity, browser and address)
 * and where each recent message came from, for a ban. In Redis when processes share an
 * installation (a turn is then taken once across all of them), in memory otherwise and while
 * Redis is away.
 */
export interface ChatMarks {
  /** Takes `key` for `ttlMs` unless it is held: 0 when taken now, else how long it is still held. */
  claim(key: string, ttlMs: number): Promise<number>;
  remember(key: string, value: string, ttlMs: number): Promise<void>;
  recall(key: string): Promise<string | undefined>;
}

export class MemoryChatMarks implements ChatMarks {
  private readonly marks = new Map<string, { value: string; until: number }>();

  private live(key: string, now: number) {
    const mark = this.marks.get(key);
    if (mark && mark.until <= now) this.marks.delete(key);
    return mark && mark.until > now ? mark : undefined;
  }

  private set(key: string, value: string, ttlMs: number, now: number) {
    if (this.marks.size > 100_000) {
      for (const [old, mark] of this.marks) if (mark.until <= now) this.marks.delete(old);
    }
    this.marks.set(key, { value, until: now + ttlMs });
  }

  async claim(key: string, ttlMs: number) {
    const now = Date.now();
    const held = this.live(key, now);
    if (held) return Math.max(1, held.until - now);
    this.set(key, '1', ttlMs, now);
    return 0;
  }

  async remember(key: string, value: string, ttlMs: number) {
    this.set(key, value, ttlMs, Date.now());
  }

  async recall(key: string) {
    return this.live(key, Date.now())?.value;
  }
}

export class RedisChatMarks implements ChatMarks {
  private readonly fallback = new MemoryChatMarks();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(key: string) {
    return `${this.prefix}:viewer-chat:${key}`;
  }

  async claim(key: string, ttlMs: number) {
    if (this.redis.status !== 'ready') return this.fallback.claim(key, ttlMs);
    const taken = await this.redis.set(this.key(key), '1', 'PX', ttlMs, 'NX');
    if (taken === 'OK') return 0;
    return Math.max(1, await this.redis.pttl(this.key(key)));
  }

  async remember(key: string, value: string, ttlMs: number) {
    if (this.redis.status !== 'ready') return this.fallback.remember(key, value, ttlMs);
    await this.redis.set(this.key(key), value, 'PX', ttlMs);
  }

  async recall(key: string) {
    if (this.redis.status !== 'ready') return this.fallback.recall(key);
    return (await this.redis.get(this.key(key))) ?? undefined;
  }
}
