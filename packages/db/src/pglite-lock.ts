import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite is a database inside one process: two processes opening the same folder write over each
 * other's pages. Whoever opens it writes its process id next to it; another process refuses to open
 * it while that process lives (a server and the operator's command line, or two servers).
 */
export class PgliteInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(`the embedded database ${folder} is in use by process ${pid}; it allows one process at a time`);
  }
}

const lockPath = (folder: string) => join(folder, 'meetcast.pid');

/** Takes the folder for this process; returns the release to call when the database closes. */
export function lockPgliteFolder(folder: string): () => void {
  const path = lockPath(folder);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const file = openSync(path, 'wx', 0o600);
      writeSync(file, String(process.pid));
      closeSync(file);
      return () => releaseIfOurs(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(path);
      if (holder === process.pid) return () => undefined;
      if (holder !== undefined && isAlive(holder)) throw new PgliteInUseError(folder, holder);
      // Left by a process that ended without closing (killed): stale.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not take ${path}`);
}

function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process id reused after a crash by something other than Node does not hold the database.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}

function releaseIfOurs(path: string) {
  if (holderOf(path) === process.pid) rmSync(path, { force: true });
}
