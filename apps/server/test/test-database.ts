import { randomBytes } from 'node:crypto';
import { openDatabase, type DatabaseHandle } from '@meetcast/db';
import pg from 'pg';

export type Backend = 'pglite' | 'postgres';
export const BACKENDS: Backend[] = ['pglite', 'postgres'];

/** The PostgreSQL that test databases are created on (trust auth on this machine and in CI). */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  handle: DatabaseHandle;
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh, migrated database per test file: in-memory PGlite, or a new PostgreSQL database. */
export async function createTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const handle = await openDatabase({ inMemory: true });
    return { handle, url: undefined, drop: () => handle.close() };
  }
  const name = `meetcast_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      const cleaner = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
      await cleaner.connect();
      await cleaner.query(`drop database if exists ${name} with (force)`);
      await cleaner.end();
    },
  };
}
