import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { lockPgliteFolder, PgliteInUseError } from '@meetcast/db';
import type { AppConfig } from '../env.js';
import { makeDataDirPrivate } from '../platform/private-data-dir.js';
import { SECRETS_KEY_FILE } from '../platform/secrets-box.js';
import { recordingsFolder } from '../streaming/recording-files.js';
import { DatabaseInUseError } from './cli-context.js';
import { UsageError } from './password-input.js';

const run = promisify(execFile);

/** What under DATA_DIR makes an installation: the embedded database, uploaded images, recordings, the secrets key. */
function backedUpEntries(config: AppConfig): string[] {
  const entries = ['uploads', recordingsFolder('.').replace(/^\.\//, ''), SECRETS_KEY_FILE];
  if (!config.databaseUrl) entries.unshift('pglite');
  return entries.filter((entry) => existsSync(join(config.dataDir, entry)));
}

/**
 * The embedded database is copied as files, which is consistent only while nobody writes it: the
 * folder's lock is held for the whole copy, so a running server makes the backup refuse.
 */
function holdEmbeddedDatabase(config: AppConfig): () => void {
  if (config.databaseUrl) return () => undefined;
  const folder = join(config.dataDir, 'pglite');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    return lockPgliteFolder(folder);
  } catch (error) {
    if (error instanceof PgliteInUseError) throw new DatabaseInUseError(config.dataDir, error.pid);
    throw error;
  }
}

export async function backup(config: AppConfig, file: string): Promise<string> {
  const release = holdEmbeddedDatabase(config);
  try {
    const entries = backedUpEntries(config);
    if (entries.length === 0) throw new UsageError(`nothing to back up under ${config.dataDir}`);
    await run('tar', ['-czf', resolve(file), '--exclude=meetcast.pid', '-C', config.dataDir, ...entries]);
    const database = config.databaseUrl
      ? '; the PostgreSQL database is not in it: back it up with pg_dump --format=custom "$DATABASE_URL"'
      : '';
    return `backed up ${entries.join(', ')} to ${file}${database}`;
  } finally {
    release();
  }
}

/** Into a DATA_DIR without an installation of its own: restoring never mixes two. */
export async function restore(config: AppConfig, file: string): Promise<string> {
  if (!existsSync(file)) throw new UsageError(`${file} does not exist`);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const release = holdEmbeddedDatabase(config);
  try {
    const present = backedUpEntries(config).filter(
      (entry) => entry !== 'pglite' || readdirSync(join(config.dataDir, entry)).some((name) => name !== 'meetcast.pid'),
    );
    if (present.length > 0) {
      throw new UsageError(`${config.dataDir} already holds ${present.join(', ')}: restore into an empty DATA_DIR`);
    }
    await run('tar', ['-xzf', resolve(file), '-C', config.dataDir]);
    makeDataDirPrivate(config.dataDir);
    const database = config.databaseUrl ? '; restore the PostgreSQL database with pg_restore' : '';
    return `restored ${file} into ${config.dataDir}${database}`;
  } finally {
    release();
  }
}
