import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeDataDirPrivate } from './private-data-dir.js';

const parent = mkdtempSync(join(tmpdir(), 'meetcast-private-data-'));
const umaskBefore = process.umask();
afterEach(() => process.umask(umaskBefore));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('DATA_DIR', () => {
  it('is created 0700, and what the process writes in it afterwards is its user’s alone', () => {
    process.umask(0o022);
    const dataDir = join(parent, 'fresh', 'data');
    expect(makeDataDirPrivate(dataDir)).toEqual({ state: 'private' });
    expect(modeOf(dataDir)).toBe(0o700);
    writeFileSync(join(dataDir, 'written'), 'x');
    mkdirSync(join(dataDir, 'folder'));
    expect(modeOf(join(dataDir, 'written'))).toBe(0o600);
    expect(modeOf(join(dataDir, 'folder'))).toBe(0o700);
  });

  it('is closed to 0700 when it was left open to others', () => {
    process.umask(0o022);
    const dataDir = join(parent, 'open');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    expect(makeDataDirPrivate(dataDir)).toEqual({ state: 'closed' });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(makeDataDirPrivate(dataDir)).toEqual({ state: 'private' });
  });
});
