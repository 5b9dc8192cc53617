import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnBound } from '../../platform/bound-children.js';

/**
 * The processes one composer runs (Xvfb, PulseAudio, Chromium, ffmpeg). Each dies with the server
 * process (see platform/bound-children.ts); they are also written to a file under DATA_DIR, so that
 * a start-up finds whatever an earlier process left where that could not be arranged.
 */
export class ProcessLedger {
  private readonly pids = new Map<number, string>();

  constructor(
    private readonly folder: string,
    private readonly name: string,
  ) {
    mkdirSync(folder, { recursive: true });
  }

  spawn(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawnBound(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    if (child.pid) this.remember(child.pid, command);
    child.once('exit', () => {
      if (child.pid) this.forget(child.pid);
    });
    // A missing binary is reported through 'error'; without a listener it would crash the server.
    child.on('error', () => undefined);
    return child;
  }

  remember(pid: number, command: string) {
    this.pids.set(pid, command);
    this.save();
  }

  forget(pid: number) {
    this.pids.delete(pid);
    this.save();
  }

  private save() {
    const file = join(this.folder, `${this.name}.pids`);
    if (this.pids.size === 0) rmSync(file, { force: true });
    else writeFileSync(file, JSON.stringify([...this.pids]));
  }

  /** Kills every process still alive from this ledger and drops its file. */
  killAll() {
    for (const [pid, command] of this.pids) killIfSame(pid, command);
    this.pids.clear();
    this.save();
  }
}

function killIfSame(pid: number, command: string) {
  try {
    // The pid may have been reused since: only kill what still runs the same program.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const program = command.split('/').pop() ?? command;
    if (!cmdline.includes(program)) return;
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Kills every process whose command line names `marker` (a composer's folder: its Chromium profile). */
export function killProcessesMentioning(marker: string) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
}

/** At start-up: what composers of an earlier, killed server process left running. */
export function killLeftovers(folder: string) {
  killProcessesMentioning(folder);
  let files: string[] = [];
  try {
    files = readdirSync(folder).filter((file) => file.endsWith('.pids'));
  } catch {
    return;
  }
  for (const file of files) {
    try {
      const entries = JSON.parse(readFileSync(join(folder, file), 'utf8')) as [number, string][];
      for (const [pid, command] of entries) killIfSame(pid, command);
    } catch {
      // An unreadable ledger has nothing we can act on.
    }
    rmSync(join(folder, file), { force: true });
  }
}

/** What one composer worker's stages (one folder each under the worker's) and the worker left running. */
export function killWorkerLeftovers(workerFolder: string) {
  if (!existsSync(workerFolder)) return;
  for (const stage of readdirSync(workerFolder)) killLeftovers(join(workerFolder, stage));
  killLeftovers(workerFolder);
}

/** Waits until `check` holds, polling every 50 ms, or throws after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
