import type { DatabaseHandle } from '@meetcast/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { SessionStore } from './accounts/session-store.js';
import type { AppConfig } from './env.js';
import type { Mailer } from './mail/mailer.js';
import type { MediaService } from './media/media-service.js';
import type { Notifier } from './notifications/notifier.js';
import type { AppEvents } from './platform/app-events.js';
import type { RateLimiter } from './platform/rate-limiter.js';

/** What route modules and services share; built once in app.ts and passed down explicitly. */
export interface AppContext {
  config: AppConfig;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  redis: Redis | undefined;
  sessions: SessionStore;
  limiter: RateLimiter;
  mailer: Mailer;
  notifier: Notifier;
  log: FastifyBaseLogger;
  /** Janus instances, room placement and room administration. */
  media: MediaService;
  /** Typed in-process events between features (platform/app-events.ts). */
  events: AppEvents;
}
