import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

export function registerHealthRoutes(app: FastifyInstance, context: AppContext) {
  app.get('/healthz', { schema: { hide: true } }, () => ({
    status: 'success',
    message: 'alive',
  }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await context.database.ping();
      if (context.redis) await context.redis.ping();
      return { status: 'success', message: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'error', message: 'not ready' });
    }
  });
}
