import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migratedPgliteTemplate, migrationsVersion, openDatabase, type DatabaseHandle } from '@meetcast/db';
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
    const handle = await openDatabase({ inMemory: true, template: await pgliteTemplate() });
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

/**
 * PGlite's initdb takes seconds; copying a migrated data folder takes one. The template is stored in
 * the temporary folder, named after the migrations, so every test file and process shares it.
 */
async function pgliteTemplate(): Promise<Blob> {
  const version = createHash('sha256').update(migrationsVersion()).digest('hex').slice(0, 16);
  const file = join(tmpdir(), `meetcast-pglite-template-${version}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const template = await migratedPgliteTemplate();
  // Written aside and renamed: a test file starting meanwhile never reads half a template.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await template.arrayBuffer()));
  renameSync(partial, file);
  return template;
}
