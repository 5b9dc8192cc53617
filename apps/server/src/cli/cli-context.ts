import { openDatabase, PgliteInUseError, type DatabaseHandle } from '@meetcast/db';
import { Redis } from 'ioredis';
import { SessionStore } from '../accounts/session-store.js';
import type { AppConfig } from '../env.js';

/** What the account commands work with: the server's database, and its Redis to tell running servers. */
export interface CliContext {
  config: AppConfig;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  redis: Redis | undefined;
  sessions: SessionStore;
  close(): Promise<void>;
}

/** How long the command line waits for a server, Redis or Janus before it calls the check failed. */
export const ANSWER_TIMEOUT_MS = 3000;

/** A Redis connection that fails at once instead of retrying for ever as the server's does. */
export function oneShotRedis(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: ANSWER_TIMEOUT_MS,
    enableOfflineQueue: true,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  return redis;
}

/** Whether a server answers on the configured address (its /healthz), with the base URL it answered on. */
export async function runningServer(config: AppConfig): Promise<string | undefined> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  try {
    const answer = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    return answer.ok ? base : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The embedded PGlite is one process's alone (packages/db takes a lock on its folder): while a
 * server runs on it, the command line refuses and says what to do instead.
 */
export class DatabaseInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `the embedded database under ${dataDir} is in use by process ${pid} (the server?): ` +
        'stop the server first (the embedded database allows one process), or run Meetcast on PostgreSQL (DATABASE_URL)',
    );
  }
}

export async function openCliDatabase(config: AppConfig): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openDatabase({ url: config.databaseUrl });
  try {
    return await openDatabase({ dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof PgliteInUseError) throw new DatabaseInUseError(config.dataDir, error.pid);
    throw error;
  }
}

export async function openCliContext(config: AppConfig): Promise<CliContext> {
  const database = await openCliDatabase(config);
  const redis = config.redisUrl ? oneShotRedis(config.redisUrl) : undefined;
  if (redis) await redis.connect().catch(() => undefined);
  const sessions = new SessionStore(database.db, redis, `${config.redisPrefix}:session-revocations`);
  return {
    config,
    database,
    db: database.db,
    redis,
    sessions,
    close: async () => {
      redis?.disconnect();
      await database.close();
    },
  };
}
