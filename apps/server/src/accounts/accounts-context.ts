import type { Database } from '@meetcast/db';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../env.js';
import type { Mailer } from '../mail/mailer.js';
import type { RateLimiter } from '../platform/rate-limiter.js';
import type { SessionStore } from './session-store.js';

/**
 * The part of the app's context that accounts use. Callers hand in the whole context; naming only
 * this part keeps accounts below the context that is built on them (context.ts extends it).
 */
export interface AccountsContext {
  config: AppConfig;
  db: Database;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
  mailer: Mailer;
  sessions: SessionStore;
}
