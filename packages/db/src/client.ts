import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockPgliteFolder } from './pglite-lock.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The one database type the server codes against, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), '../migrations');
// Serializes migrations when several server processes start against one PostgreSQL.
const MIGRATION_LOCK_ID = 727_001;

/**
 * `template`: a data folder from `migratedPgliteTemplate()`, which skips PGlite's seconds-long initdb.
 * `onQuery`: told of every statement the server sends (benches count the queries of one request).
 */
export type DatabaseOptions = ({ url: string } | { dataDir: string } | { inMemory: true; template?: Blob }) & {
  onQuery?: (query: string) => void;
};

const queryLogger = (options: DatabaseOptions) =>
  options.onQuery ? { logQuery: (query: string) => options.onQuery!(query) } : undefined;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('url' in options) return openPostgres(options.url, queryLogger(options));
  const dataDir = 'dataDir' in options ? join(options.dataDir, 'pglite') : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const release = dataDir ? lockPgliteFolder(dataDir) : () => undefined;
  const template = 'template' in options ? options.template : undefined;
  const client = dataDir ? new PGlite(dataDir) : new PGlite({ loadDataDir: template });
  const db = drizzlePglite({ client, schema, logger: queryLogger(options) });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (error) {
    await client.close().catch(() => undefined);
    release();
    throw error;
  }
  if (dataDir) closeToOtherUsers(dataDir);
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await client.close();
      release();
    },
  };
}

/**
 * PGlite's files are the server's user's alone, as PostgreSQL's own are. Its Emscripten file system
 * ignores the process umask and sets modes itself: initdb leaves its ~970 files 0666 and its folders
 * 0755, and relation caches it writes later come out 0644. So each open takes the bits of group and
 * others away from everything in the folder (about 1,200 entries, a few milliseconds); what PGlite
 * writes between two opens is still behind DATA_DIR's own 0700.
 */
function closeToOtherUsers(path: string) {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
  if (stat.isDirectory()) for (const name of readdirSync(path)) closeToOtherUsers(join(path, name));
}

/** An in-memory database with every migration applied, dumped as a data folder to start copies from. */
export async function migratedPgliteTemplate(): Promise<Blob> {
  const client = new PGlite();
  try {
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/** Changes whenever a migration is added, so a stored template is never older than the schema. */
export function migrationsVersion(): string {
  return readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8');
}

async function openPostgres(url: string, logger: ReturnType<typeof queryLogger>): Promise<DatabaseHandle> {
  const migrationClient = new pg.Client({ connectionString: url });
  await migrationClient.connect();
  try {
    await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePostgres(drizzlePostgres({ client: migrationClient, schema }), {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
  } finally {
    await migrationClient.end();
  }
  // A request waits at most 5 s for a connection while PostgreSQL is unreachable, then fails (503).
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle connection that the server drops must not take the process down.
  pool.on('error', () => undefined);
  const db = drizzlePostgres({ client: pool, schema, logger });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => endPool(pool),
  };
}

/** How long closing waits for connections still lent out before it lets them go with the process. */
const POOL_END_MS = 5000;

/**
 * `pool.end()` waits for every lent connection to come back; one that never does (a query that
 * hangs) must not hang the shutdown, or a test's teardown, with it: after 5 s the pool is left to
 * the process's exit.
 */
async function endPool(pool: pg.Pool): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, POOL_END_MS);
    timer.unref();
  });
  await Promise.race([pool.end().catch(() => undefined), late]);
  clearTimeout(timer);
}
