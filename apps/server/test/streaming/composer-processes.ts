import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

/**
 * What a test sees of a composer from outside, the way an operator would with `ps`: its stage's
 * folder and screen, the processes running for it, and what a receiver got.
 */
export interface StageOnDisk {
  folder: string;
  /** The X display number: Xvfb's `:N` and the encoder's `x11grab` input name it. */
  display: number;
}

/** The stages a server's composer worker runs now (folders `DATA_DIR/composers/{worker}/stage-{N}`). */
export function stagesOf(dataDir: string): StageOnDisk[] {
  const root = join(dataDir, 'composers');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((worker) =>
    existsSync(join(root, worker))
      ? readdirSync(join(root, worker))
          .filter((name) => /^stage-\d+$/.test(name))
          .map((name) => ({ folder: join(root, worker, name), display: Number(name.slice('stage-'.length)) }))
      : [],
  );
}

interface ProcessEntry {
  pid: number;
  ppid: number;
  state: string;
  cmdline: string;
}

/** Every process of this machine still running (zombies excluded: they are only waiting to be reaped). */
export function processes(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: the fields after it are split.
      const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || state === 'X') continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      entries.push({ pid: Number(name), ppid: Number(ppid), state, cmdline });
    } catch {
      // Gone while reading.
    }
  }
  return entries;
}

export function isRunning(pid: number) {
  return processes().some((entry) => entry.pid === pid);
}

/** A process and all it started, still running. */
export function treeOf(pid: number): number[] {
  const all = processes();
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const entry of all)
      if (tree.has(entry.ppid) && !tree.has(entry.pid)) {
        tree.add(entry.pid);
        grew = true;
      }
  }
  return [...tree].filter((member) => all.some((entry) => entry.pid === member));
}

/** Chromium's own process (not its renderers or helpers) for a stage: the one given its profile. */
export function chromiumOf(stage: StageOnDisk): number | undefined {
  return processes().find(
    (entry) =>
      entry.cmdline.includes(`--user-data-dir=${stage.folder}/profile`) &&
      !entry.cmdline.includes('--type=') &&
      !entry.cmdline.startsWith('/bin/sh'),
  )?.pid;
}

/** The stage's encoder: the ffmpeg grabbing its screen. */
export function encoderOf(stage: StageOnDisk): number[] {
  return processes()
    .filter((entry) => /ffmpeg/.test(entry.cmdline) && entry.cmdline.includes(`:${stage.display}.0+0,0`))
    .map((entry) => entry.pid);
}

/** Everything still running that names the stage (folder, screen): after its end there must be nothing. */
export function leftoversOf(stage: StageOnDisk): ProcessEntry[] {
  return processes().filter(
    (entry) =>
      entry.pid !== process.pid &&
      (entry.cmdline.includes(stage.folder) || entry.cmdline.includes(`:${stage.display}.0+0,0`)),
  );
}

/** The video packets' timestamps (seconds) of a media file, as a player reads them. */
export function videoTimestamps(file: string): number[] {
  const text = execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file],
    { maxBuffer: 64 * 1024 * 1024 },
  ).toString();
  return text
    .split('\n')
    .map((line) => Number.parseFloat(line))
    .filter((value) => Number.isFinite(value))
    .sort((a, b) => a - b);
}

/** The largest step between consecutive timestamps from `from` on (seconds): a hole, or frames lost. */
export function largestGap(timestamps: number[], from = -Infinity) {
  let largest = 0;
  for (let index = 1; index < timestamps.length; index++) {
    if (timestamps[index - 1]! < from) continue;
    largest = Math.max(largest, timestamps[index]! - timestamps[index - 1]!);
  }
  return largest;
}

export function mediaDuration(file: string) {
  return Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file])
      .toString()
      .trim(),
  );
}

/** What the stand-in layout page draws: a background colour, and a tone unless `isSilent`. */
export interface LayoutStandIn {
  /** Counts the composer's openings of a layout page. */
  opened?: { count: number };
  background?: string;
  /** Markup drawn over the background. */
  content?: string;
  isSilent?: boolean;
}

/**
 * A stand-in for the web app's layout page (the suite runs before the app is built): it says it is
 * ready, shows a picture and plays a tone, so the composer has something to encode.
 */
export function startLayoutPage({ opened, background = '#2a6', content = '', isSilent }: LayoutStandIn = {}) {
  const tone =
    '<script>const sound = new AudioContext(); const tone = sound.createOscillator();' +
    'tone.connect(sound.destination); tone.start();</script>';
  const html =
    '<!doctype html><html><body data-broadcast-layout data-ready="true" data-broadcast-standby ' +
    `style="margin:0;background:${background}">${content}${isSilent ? '' : tone}</body></html>`;
  const server = createServer((request, response) => {
    if (opened && request.url?.startsWith('/broadcast-layout/')) opened.count += 1;
    response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  return new Promise<Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

