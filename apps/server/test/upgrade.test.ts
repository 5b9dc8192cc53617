import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/hashing.js';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig } from '../src/env.js';

const MIGRATIONS = fileURLToPath(new URL('../../../packages/db/migrations/', import.meta.url));
/**
 * The last migration of a release before live streaming (the parent of commit 5739abb): 0008 and
 * later replace a draft table, add columns to meetings and rooms, and create the streaming tables.
 * Migrations are only ever appended, so the first eight files here are that release's own.
 */
const OLDER_RELEASE_LAST = '0007_media_server_registry';

interface Journal {
  entries: { idx: number; tag: string }[];
}
const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as Journal;

/** The migrations folder as the older release shipped it: its journal ends at its last migration. */
function olderReleaseMigrations(): string {
  const last = journal.entries.findIndex((entry) => entry.tag === OLDER_RELEASE_LAST);
  if (last < 0 || last === journal.entries.length - 1)
    throw new Error(`${OLDER_RELEASE_LAST} is not an older migration`);
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-older-migrations-'));
  mkdirSync(join(folder, 'meta'));
  const entries = journal.entries.slice(0, last + 1);
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const { tag } of entries) cpSync(join(MIGRATIONS, `${tag}.sql`), join(folder, `${tag}.sql`));
  return folder;
}

describe('an upgrade from an older release', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-upgrade-'));
  const password = 'kept across the upgrade';
  let built: BuiltApp;
  let baseUrl: string;
  let userId: number;
  let meetingId: number;

  beforeAll(async () => {
    // The older release's DATA_DIR: its embedded database, migrated by its migrations, with its data.
    const olderMigrations = olderReleaseMigrations();
    const client = new PGlite(join(dataDir, 'pglite'));
    try {
      await migrate(drizzle({ client }), { migrationsFolder: olderMigrations });
      // Written with that release's columns alone, as its server wrote them.
      const passwordHash = await hashPassword(password);
      const user = await client.query<{ id: number }>(
        `insert into users (username, email, password_hash, role_id, email_verified_at)
         values ('Early Admin', 'early@example.com', $1, 1, now()) returning id`,
        [passwordHash],
      );
      userId = user.rows[0]!.id;
      const channel = await client.query<{ id: number }>(
        `insert into channels (owner_id, name, slug) values ($1, 'Early Channel', 'early-channel') returning id`,
        [userId],
      );
      const meeting = await client.query<{ id: number }>(
        `insert into meetings (host_id, name, slug, is_schedule, start_time, end_time, channel_id)
         values ($1, 'Planned before the upgrade', 'planned-before', 1, now() + interval '1 day',
                 now() + interval '1 day 1 hour', $2) returning id`,
        [userId, channel.rows[0]!.id],
      );
      meetingId = meeting.rows[0]!.id;
    } finally {
      await client.close();
      rmSync(olderMigrations, { recursive: true, force: true });
    }

    // Today's server on that folder, as an operator's restart after `git pull` and `npm run build`.
    built = await buildApp(
      loadConfig({
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        COMPOSER_SPARES: '0',
        COMPOSER_WORKER: 'off',
      }),
    );
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  }, 300_000);

  afterAll(async () => {
    await built?.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async <T>(name: string, fields: Record<string, string>) => {
    const response = await fetch(`${baseUrl}/api/${name}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: response.status, body: (await response.json()) as { data?: T } };
  };

  it('runs every migration the older release did not have', async () => {
    const applied = (await built.context.db.execute(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { count: number }[] };
    expect(applied.rows[0]?.count).toBe(journal.entries.length);
  });

  it('keeps the account, its channel and its meeting, usable through the API', async () => {
    const login = await post<{ token: string; data: { id: number; role_id: number } }>('login.php', {
      email: 'early@example.com',
      password,
    });
    expect(login.status).toBe(200);
    expect(login.body.data?.data).toMatchObject({ id: userId, role_id: 1 });
    const token = login.body.data!.token;

    const meeting = await post<{ name: string; url_slug: string }>('get-meeting.php', {
      token,
      id: String(meetingId),
    });
    expect(meeting.status).toBe(200);
    expect(meeting.body.data).toMatchObject({ name: 'Planned before the upgrade', url_slug: 'planned-before' });

    const channel = await post<unknown>('get-channel.php', { slug: 'early-channel' });
    expect(channel.status).toBe(200);
    expect(JSON.stringify(channel.body.data)).toContain('Early Channel');
  });
});
