import type { DatabaseHandle } from '@meetcast/db';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';

/** Ready once the database and, where configured, Redis answer. */
export function registerHealthRoutes(
  app: FastifyInstance,
  stores: { database: DatabaseHandle; redis: Redis | undefined },
) {
  app.get('/healthz', { schema: { hide: true } }, () => ({
    status: 'success',
    message: 'alive',
  }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await stores.database.ping();
      if (stores.redis) await stores.redis.ping();
      return { status: 'success', message: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'error', message: 'not ready' });
    }
  });
}
