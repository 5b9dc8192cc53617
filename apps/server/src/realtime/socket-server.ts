import { closeWithin } from '../platform/close-within.js';
import {
  REALTIME_PROTOCOL_VERSION,
  RealtimeAuthSchema,
  USER_EVENT,
  type RealtimeErrorReason,
  type UserEvent,
} from '@meetcast/contracts';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Revocation } from '../accounts/session-store.js';
import type { AppContext } from '../context.js';
import { apiSecurityHeaders } from '../http/security-headers.js';
import { outageTolerantAdapter } from './outage-tolerant-adapter.js';
import { sha256 } from '../platform/hashing.js';
import { SOCKET_PING_INTERVAL_MS, SOCKET_PING_TIMEOUT_MS } from '../platform/socket-heartbeat.js';

export const userRoom = (userId: number) => `user:${userId}`;

/**
 * Socket.IO on the HTTP server. The default namespace carries per-user events (notifications);
 * features add their own namespaces on the same server. With REDIS_URL, emits reach sockets held
 * by any server process.
 */
export function startSocketServer(app: FastifyInstance, context: AppContext): Server {
  const io = new Server(app.server, {
    path: '/socket.io/',
    serveClient: false,
    cors: { origin: false },
    pingInterval: SOCKET_PING_INTERVAL_MS,
    pingTimeout: SOCKET_PING_TIMEOUT_MS,
  });
  // Engine.IO answers its HTTP requests itself, past the server factory that sets everyone else's.
  const securityHeaders = apiSecurityHeaders(context.config.publicUrl.startsWith('https://'));
  io.engine.on('headers', (headers: Record<string, string>) => {
    for (const [name, value] of securityHeaders) headers[name] = value;
  });
  const redisAdapter = context.redis
    ? outageTolerantAdapter(context.redis, { key: `${context.config.redisPrefix}:socket.io` })
    : undefined;
  if (redisAdapter) io.adapter(redisAdapter.adapter);

  const refusal = (reason: RealtimeErrorReason) => new Error(reason);
  io.use(async (socket: Socket, next) => {
    const auth = RealtimeAuthSchema.safeParse(socket.handshake.auth);
    if (!auth.success || auth.data.protocol !== REALTIME_PROTOCOL_VERSION) {
      next(refusal(auth.success ? 'protocol_mismatch' : 'invalid_message'));
      return;
    }
    const session = auth.data.token ? await context.sessions.verify(auth.data.token).catch(() => undefined) : undefined;
    if (!session || !auth.data.token) {
      next(refusal('unauthorized'));
      return;
    }
    socket.data.userId = session.user.id;
    socket.data.token = auth.data.token;
    next();
  });
  // A tab whose session ended (signed out elsewhere, password changed, revoked from the session
  // list) is told at once and closes its session instead of failing at its next call.
  context.sessions.onRevocation((revocation) => {
    void endRevokedSockets(io, context, revocation).catch((error: unknown) =>
      context.log.warn({ err: error }, 'realtime: telling revoked sessions failed'),
    );
  });
  io.on('connection', (socket) => {
    void socket.join(userRoom(socket.data.userId as number));
  });

  context.notifier.onDelivery((userId, notification) => {
    const event: UserEvent = { type: 'notification.created', notification };
    io.to(userRoom(userId)).emit(USER_EVENT, event);
  });
  // Connections are dropped before the HTTP server waits for its connections to end: clients see a
  // closed transport and reconnect (to another process behind the balancer, or to this one restarted).
  app.addHook('preClose', async () => {
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await closeWithin(app.log, 'socket.io', () => io.close());
    redisAdapter?.disconnect();
  });
  return io;
}

async function endRevokedSockets(io: Server, context: AppContext, revocation: Revocation) {
  const sockets =
    'userId' in revocation
      ? await io.in(userRoom(revocation.userId)).local.fetchSockets()
      : await io.local.fetchSockets();
  for (const socket of sockets) {
    const token = socket.data.token as string;
    if ('tokenHash' in revocation && sha256(token) !== revocation.tokenHash) continue;
    if (await context.sessions.verify(token).catch(() => undefined)) continue;
    socket.emit(USER_EVENT, { type: 'session.revoked' } satisfies UserEvent);
    socket.disconnect(true);
  }
}
