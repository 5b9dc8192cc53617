import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPgliteFolder, PgliteInUseError } from './pglite-lock.js';

describe('the embedded database folder lock', () => {
  const folders: string[] = [];
  const folder = () => {
    const path = mkdtempSync(join(tmpdir(), 'meetcast-lock-'));
    folders.push(path);
    return path;
  };
  afterEach(() => {
    for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
  });

  it('refuses a folder another living process holds, and frees it on release', async () => {
    const path = folder();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(path, 'meetcast.pid'), String(other.pid));
      expect(() => lockPgliteFolder(path)).toThrow(PgliteInUseError);
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // Its holder is gone: the lock is stale and taken over.
    const release = lockPgliteFolder(path);
    expect(readFileSync(join(path, 'meetcast.pid'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(path, 'meetcast.pid'))).toBe(false);
  });
});
