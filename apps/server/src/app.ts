import { openDatabase, type DatabaseHandle } from '@meetcast/db';
import { closeWithin } from './platform/close-within.js';
import { REDACTING_LOG_HOOKS } from './platform/log-redaction.js';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { optionalCaller, requireAdmin, requireUser } from './accounts/authenticate.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { registerAdminRoutes } from './admin/routes.js';
import { SessionStore } from './accounts/session-store.js';
import type { AppContext } from './context.js';
import { AppEvents } from './platform/app-events.js';
import type { AppConfig } from './env.js';
import { registerBodyParsers } from './http/body-parsers.js';
import { trustProxyOption } from './http/client-address.js';
import { drainConnectionsOnClose } from './http/connection-drain.js';
import { installErrorHandler } from './http/error-handler.js';
import { registerHealthRoutes } from './http/health.js';
import { registerOpenApi } from './http/openapi.js';
import { securityHeadersServer } from './http/security-headers.js';
import { readIndexPage, registerWebApp } from './http/web-app.js';
import { serializerCompiler, validatorCompiler } from './http/zod-compilers.js';
import { JanusProxy } from './media/janus-proxy.js';
import { MediaService } from './media/media-service.js';
import { MeetingRepository } from './meeting-records/meeting-repository.js';
import { createMailer } from './mail/mailer.js';
import { registerMeetings } from './meetings/register.js';
import type { ReminderScheduler } from './meetings/reminders.js';
import { Notifier } from './notifications/notifier.js';
import { registerNotificationRoutes } from './notifications/routes.js';
import { registerOidcRoutes } from './oidc/routes.js';
import { registerChannelPageRoute } from './channels/og-page.js';
import { registerChannelRoutes } from './channels/routes.js';
import { registerContactUsRoutes } from './contact-us/routes.js';
import { registerContactRoutes } from './contacts/routes.js';
import { registerProfileRoutes } from './profile/routes.js';
import { registerUploadRoutes } from './uploads/images.js';
import { MemoryRateLimiter, RedisRateLimiter } from './platform/rate-limiter.js';
import { closeRedis, connectRedis } from './platform/redis.js';
import { startSocketServer } from './realtime/socket-server.js';
import { attachBroadcastSockets } from './streaming/broadcast-sockets.js';
import { renewGrant } from './rooms/grants.js';
import { RoomHub } from './rooms/room-hub.js';
import { registerRoomRoutes } from './rooms/routes.js';
import { createDestinationDrivers } from './streaming/drivers/index.js';
import { registerBroadcasts } from './streaming/register.js';
import { registerStreamConnectionRoutes } from './streaming/connection-routes.js';
import { registerViewerChat } from './viewer-chat/register.js';

export interface BuiltApp {
  app: FastifyInstance;
  context: AppContext;
  /** This process's meeting reminder scheduler (tests run its passes directly). */
  reminders: ReminderScheduler;
  /** This process's composer worker (undefined with COMPOSER_WORKER=off): who owns the broadcasts it runs. */
  composerId: string | undefined;
}

const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.code'];

/** Load order: external plugins, then shared services, then routes (fastify/demo's layout). */
export async function buildApp(config: AppConfig, database?: DatabaseHandle): Promise<BuiltApp> {
  const indexPage = readIndexPage(config.webDistDir);
  const app = Fastify({
    // Addresses' paths and stream keys never reach a line, whoever writes it (log-redaction.ts).
    logger: { level: config.logLevel, redact: REDACTED_PATHS, hooks: REDACTING_LOG_HOOKS },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    serverFactory: securityHeadersServer({
      extraFormActions: config.oidc ? [config.oidc.issuer] : [],
      indexHtml: indexPage?.identity.toString('utf8'),
      earlyWatchScript: indexPage?.earlyWatchScript,
      isHttps: config.publicUrl.startsWith('https://'),
    }),
    // A request's own logger exists to tag its lines with the request id; when the level lets no
    // line through (LOG_LEVEL=silent) there is nothing to tag, and building it cost ~5% of a small call.
    childLoggerFactory: (logger, bindings, options) =>
      logger.level !== 'silent' ? logger.child(bindings, options) : logger,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  drainConnectionsOnClose(app);

  registerBodyParsers(app);
  await registerOpenApi(app);

  const db =
    database ?? (await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir }));
  const redis = config.redisUrl ? connectRedis(config.redisUrl, app.log) : undefined;
  const sessions = new SessionStore(db.db, redis, `${config.redisPrefix}:session-revocations`);
  await sessions.start();
  const context: AppContext = {
    config,
    database: db,
    db: db.db,
    redis,
    sessions,
    limiter: redis
      ? new RedisRateLimiter(redis, config.redisPrefix, config.rateLimitMultiplier)
      : new MemoryRateLimiter(config.rateLimitMultiplier),
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      log: app.log,
    }),
    notifier: new Notifier(db.db),
    media: new MediaService(db.db, config, app.log),
    log: app.log,
    events: new AppEvents(app.log),
  };

  app.decorate('authenticateRequest', (request: FastifyRequest, level: 'optional' | 'user' | 'admin') =>
    level === 'admin'
      ? requireAdmin(context, request)
      : level === 'user'
        ? requireUser(context, request)
        : optionalCaller(context, request),
  );
  registerHealthRoutes(app, context);
  registerAccountRoutes(app, context);
  registerNotificationRoutes(app, context);
  registerOidcRoutes(app, context);
  const reminders = registerMeetings(app, context);
  registerContactRoutes(app, context);
  registerStreamConnectionRoutes(app, context);
  registerChannelRoutes(app, context);
  registerProfileRoutes(app, context);
  registerContactUsRoutes(app, context);
  registerUploadRoutes(app, context);
  registerAdminRoutes(app, context);
  // Before the room routes: join-room.php tells the proxy whom it admitted (ADR 016).
  const janusProxy = new JanusProxy(
    context,
    context.media,
    (grant) => renewGrant(db.db, grant),
    (meetId) => new MeetingRepository(db.db).findBySlug(meetId),
  );
  janusProxy.attach(app);
  registerRoomRoutes(app, context, janusProxy);
  const broadcastViewers = registerBroadcasts(app, context, createDestinationDrivers(context));
  registerChannelPageRoute(app, context, broadcastViewers.viewerState, indexPage);
  const viewerChat = registerViewerChat(app, context);
  await registerWebApp(app, config.webDistDir, indexPage);
  const io = startSocketServer(app, context);
  viewerChat.attach(io);
  attachBroadcastSockets(io, context, broadcastViewers.viewerState);
  const rooms = new RoomHub(context, {
    emptyGraceMs: config.roomEmptyGraceSeconds * 1000,
    reconnectGraceMs: config.roomReconnectGraceSeconds * 1000,
    leaveGraceMs: Math.min(5000, config.roomEmptyGraceSeconds * 1000),
    mediaConnections: janusProxy,
  });
  rooms.attach(io);

  app.addHook('onClose', async () => {
    rooms.close();
    await closeWithin(app.log, 'media', () => context.media.close());
    await closeWithin(app.log, 'sessions', () => sessions.stop());
    context.mailer.close();
    await closeWithin(app.log, 'redis', () => closeRedis(redis));
    if (!database) await closeWithin(app.log, 'database', () => db.close());
  });
  return { app, context, reminders, composerId: broadcastViewers.composerId };
}
