import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const CLOCK_TICKS = 100; // getconf CLK_TCK on Linux
const PAGE_KB = 4; // getconf PAGESIZE / 1024

/** What a process of the composer machine is, for the figures: the composer's parts are told apart. */
export type Role =
  'xvfb' | 'pulseaudio' | 'chromium' | 'encoder' | 'pusher' | 'recorder' | 'spare' | 'server' | 'janus' | 'other';

export interface ProcessInfo {
  pid: number;
  role: Role;
  /** For a pusher: the address it pushes to (which destination it is). */
  label: string;
  ticks: number;
  rssKb: number;
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

function stat(pid: number): { ppid: number; ticks: number; rssKb: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "comm)": state ppid … utime (14th of stat) stime (15th) … rss (24th), counted from field 3.
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      rssKb: Number(fields[21]) * PAGE_KB,
    };
  } catch {
    return undefined;
  }
}

/** Every process under `root` (the bench server), by role: the composers' stages are found under `dataDir`. */
export function snapshot(root: number, janusPid: number | undefined, dataDir: string): ProcessInfo[] {
  const all = new Map<number, { ppid: number; ticks: number; rssKb: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const found = stat(Number(entry));
    if (found) all.set(Number(entry), found);
  }
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of all) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const under = (pid: number): number[] => [pid, ...(children.get(pid) ?? []).flatMap(under)];

  // The stage running a broadcast has an encoder; any other started stage is the idle spare.
  const stages = stageFolders(dataDir);
  const roles = new Map<number, { role: Role; label: string }>();
  for (const pid of under(root)) {
    const line = cmdline(pid);
    const stage = stages.find((folder) => line.includes(folder));
    if (pid === root) roles.set(pid, { role: 'server', label: '' });
    else if (pid === janusPid) for (const child of under(pid)) roles.set(child, { role: 'janus', label: '' });
    else if (roles.has(pid)) continue;
    else if (line.startsWith('Xvfb')) roles.set(pid, { role: 'xvfb', label: line.split(' ')[1] ?? '' });
    // pacat plays the silence that keeps the stage's sound card awake.
    else if (line.startsWith('pulseaudio') || line.startsWith('pacat'))
      roles.set(pid, { role: 'pulseaudio', label: stage ?? '' });
    else if (line.includes('x11grab')) roles.set(pid, { role: 'encoder', label: /-i (:\d+)/.exec(line)?.[1] ?? '' });
    else if (line.startsWith('ffmpeg') && line.includes(' flv ')) {
      roles.set(pid, { role: 'pusher', label: /(rtmps?:\/\/\S+)/.exec(line)?.[1] ?? '' });
    } else if (line.startsWith('ffmpeg') && line.includes('.mp4')) roles.set(pid, { role: 'recorder', label: '' });
    else if (stage && line.includes('profile')) {
      for (const child of under(pid)) roles.set(child, { role: 'chromium', label: stage });
    } else roles.set(pid, { role: 'other', label: line.slice(0, 60) });
  }
  // Xvfb and PulseAudio of the stage without an encoder, and its Chromium, are the spare's.
  const encoding = new Set([...roles.values()].filter((r) => r.role === 'encoder').map((r) => r.label));
  const result: ProcessInfo[] = [];
  for (const [pid, { role, label }] of roles) {
    const numbers = all.get(pid);
    if (!numbers) continue;
    const display = role === 'xvfb' ? label : displayOfStage(label);
    const isSpare =
      ['xvfb', 'pulseaudio', 'chromium'].includes(role) && display !== undefined && !encoding.has(display);
    result.push({ pid, role: isSpare ? 'spare' : role, label, ticks: numbers.ticks, rssKb: numbers.rssKb });
  }
  return result;
}

/** `…/composers/<worker>/stage-91` → `:91`. */
function displayOfStage(folder: string): string | undefined {
  const number = /stage-(\d+)/.exec(folder)?.[1];
  return number ? `:${number}` : undefined;
}

function stageFolders(dataDir: string): string[] {
  const root = join(dataDir, 'composers');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((worker) =>
    readdirSync(join(root, worker))
      .filter((name) => name.startsWith('stage-'))
      .map((name) => join(root, worker, name)),
  );
}

/** Cores used per role between two snapshots (a process that started meanwhile counts from zero). */
export function coresBetween(before: ProcessInfo[], after: ProcessInfo[], seconds: number) {
  const start = new Map(before.map((p) => [p.pid, p.ticks]));
  const cores = new Map<string, number>();
  for (const p of after) {
    const key = p.role === 'pusher' ? `pusher ${p.label}` : p.role;
    const used = (p.ticks - (start.get(p.pid) ?? 0)) / CLOCK_TICKS / seconds;
    cores.set(key, (cores.get(key) ?? 0) + used);
  }
  return cores;
}

/** What the budget counts as the composer: its screen, sound card, browser, encode, pushers, recording. */
export const COMPOSER_ROLES: Role[] = ['xvfb', 'pulseaudio', 'chromium', 'encoder', 'pusher', 'recorder'];

export function composerCores(cores: Map<string, number>) {
  let sum = 0;
  for (const [key, value] of cores) if (COMPOSER_ROLES.includes(key.split(' ')[0] as Role)) sum += value;
  return sum;
}
