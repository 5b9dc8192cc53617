import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';

const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-pglite-modes-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every entry under `folder` that group or others may read, write or enter, with its mode. */
function openToOthers(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).flatMap((name) => {
    const stat = lstatSync(join(folder, name));
    return !stat.isSymbolicLink() && (stat.mode & 0o077) !== 0 ? [`${(stat.mode & 0o777).toString(8)} ${name}`] : [];
  });
}

describe('the embedded database in DATA_DIR', () => {
  // initdb and the migrations: ~10 s on an idle two-core machine, a minute on a crowded one.
  it('keeps its files to the server’s user from its first start on', async () => {
    const database = await openDatabase({ dataDir });
    await database.close();
    const folder = join(dataDir, 'pglite');
    expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(500);
    expect(openToOthers(folder)).toEqual([]);
    expect(lstatSync(folder).mode & 0o777).toBe(0o700);
  }, 180_000);
});
