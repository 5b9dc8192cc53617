import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { backoffDelay, type BackoffSchedule } from './backoff.js';

/** While Redis is away, a reconnection is tried at least this often: calls and realtime recover within about a second. */
const RECONNECT: BackoffSchedule = { firstMs: 100, maxMs: 1000 };

/**
 * The process's Redis connection. ioredis reconnects by itself; the outage and the recovery are
 * logged once each, not at every attempt.
 */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    retryStrategy: (attempt) => backoffDelay(attempt, RECONNECT),
  });
  let isDown = false;
  redis.on('error', (error: Error) => {
    if (!isDown)
      log.warn(
        { err: error },
        'redis: connection lost; limited calls answer 503 and realtime events stay within this process until it returns',
      );
    isDown = true;
  });
  redis.on('ready', () => {
    if (isDown) log.info('redis: connected again');
    isDown = false;
  });
  return redis;
}

/** A second connection; its errors are the main connection's, logged there. */
export function duplicateRedis(redis: Redis): Redis {
  return redis.duplicate().on('error', () => undefined);
}

/**
 * A connection for subscriptions (they need their own). Its commands wait for Redis however long it
 * is away instead of failing: a subscription asked for during an outage (at start-up, say) is made
 * when Redis returns, and ioredis renews the ones it had after each reconnection.
 */
export function subscriberRedis(redis: Redis): Redis {
  return redis.duplicate({ maxRetriesPerRequest: null }).on('error', () => undefined);
}

/** Quits when connected; while Redis is away a QUIT would wait for it, so the connection is dropped instead. */
export async function closeRedis(redis: Redis | undefined) {
  if (redis?.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis?.disconnect();
}
