import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long requests in flight and closing WebSockets get once the server starts to close. */
const DRAIN_GRACE_MS = 2000;

/**
 * Ends the connections Node's `server.close()` would wait for. It closes only those idle between two
 * requests: a socket a browser opened ahead of need (Chromium preconnects a second one) has carried
 * no request yet and would hold the shutdown until its headers timeout, a minute or more; so would a
 * WebSocket whose peer never answers the close. Unused sockets are ended at once, the rest after 2 s.
 */
export function drainConnectionsOnClose(app: FastifyInstance) {
  const unused = new Set<Socket>();
  const used = new Set<Socket>();
  const markUsed = (request: IncomingMessage) => {
    if (unused.delete(request.socket)) used.add(request.socket);
  };
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => {
      unused.delete(socket);
      used.delete(socket);
    });
  });
  app.server.on('request', markUsed);
  app.server.on('upgrade', markUsed);
  app.addHook('preClose', async () => {
    for (const socket of unused) socket.destroy();
    setTimeout(() => {
      for (const socket of used) socket.destroy();
    }, DRAIN_GRACE_MS).unref();
  });
}
