import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Who watches a broadcast over HLS. HLS has no connection to count: a player asks for the playlist
 * again every segment (each second), so a viewer is someone whose address and browser asked for it
 * within the last few seconds. Kept in Redis when processes share an installation (a sorted set per
 * broadcast, scored by the time of the last request), in memory otherwise.
 */
export interface HlsAudience {
  /** A playlist request from this viewer; true when the viewer was not counted before (one who arrived). */
  seen(broadcastId: number, address: string, userAgent: string): Promise<boolean>;
  count(broadcastId: number): Promise<number>;
}

/** A viewer whose player stopped asking for this long has left (several playlist refreshes missed). */
export const HLS_VIEWER_WINDOW_MS = 10_000;

const viewerKey = (address: string, userAgent: string) =>
  createHash('sha256').update(`${address}\n${userAgent}`).digest('base64url').slice(0, 22);

export class MemoryHlsAudience implements HlsAudience {
  private readonly broadcasts = new Map<number, Map<string, number>>();

  async seen(broadcastId: number, address: string, userAgent: string) {
    let viewers = this.broadcasts.get(broadcastId);
    if (!viewers) {
      if (this.broadcasts.size > 1000) this.sweep();
      viewers = new Map();
      this.broadcasts.set(broadcastId, viewers);
    }
    const key = viewerKey(address, userAgent);
    const isNew = (viewers.get(key) ?? 0) < Date.now() - HLS_VIEWER_WINDOW_MS;
    viewers.set(key, Date.now());
    return isNew;
  }

  async count(broadcastId: number) {
    const viewers = this.broadcasts.get(broadcastId);
    if (!viewers) return 0;
    const since = Date.now() - HLS_VIEWER_WINDOW_MS;
    for (const [key, at] of viewers) if (at < since) viewers.delete(key);
    if (viewers.size === 0) this.broadcasts.delete(broadcastId);
    return viewers.size;
  }

  private sweep() {
    for (const broadcastId of this.broadcasts.keys()) void this.count(broadcastId);
  }
}

export class RedisHlsAudience implements HlsAudience {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(broadcastId: number) {
    return `${this.prefix}:hls-viewers:${broadcastId}`;
  }

  /** A count is a courtesy: while Redis is away the page shows the WebRTC viewers only. */
  async seen(broadcastId: number, address: string, userAgent: string) {
    if (this.redis.status !== 'ready') return false;
    const key = this.key(broadcastId);
    const now = Date.now();
    const viewer = viewerKey(address, userAgent);
    const result = await this.redis
      .multi()
      .zscore(key, viewer)
      .zadd(key, now, viewer)
      .pexpire(key, HLS_VIEWER_WINDOW_MS * 3)
      .exec()
      .catch(() => null);
    if (!result) return false;
    const before = result[0]?.[1];
    return typeof before !== 'string' || Number(before) < now - HLS_VIEWER_WINDOW_MS;
  }

  async count(broadcastId: number) {
    if (this.redis.status !== 'ready') return 0;
    const key = this.key(broadcastId);
    const result = await this.redis
      .multi()
      .zremrangebyscore(key, '-inf', Date.now() - HLS_VIEWER_WINDOW_MS)
      .zcard(key)
      .exec()
      .catch(() => null);
    return Number(result?.[1]?.[1] ?? 0);
  }
}
