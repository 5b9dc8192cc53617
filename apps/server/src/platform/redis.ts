import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** While Redis is away, a reconnection is tried at least this often: calls and realtime recover within about a second. */
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * The process's Redis connection. ioredis reconnects by itself; the outage and the recovery are
 * logged once each, not at every attempt.
 */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  let isDown = false;
  redis.on('error', (error: Error) => {
    if (!isDown) log.warn({ err: error }, 'redis: connection lost; limited calls answer 503 until it returns');
    isDown = true;
  });
  redis.on('ready', () => {
    if (isDown) log.info('redis: connected again');
    isDown = false;
  });
  return redis;
}

/** A second connection (subscribers need their own); its errors are the main connection's, logged there. */
export function duplicateRedis(redis: Redis): Redis {
  return redis.duplicate().on('error', () => undefined);
}
