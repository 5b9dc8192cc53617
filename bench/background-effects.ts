/// <reference lib="dom" />
// Background effects' CPU cost (ADR 017) and noise suppression's (RNNoise on the microphone), from
// one run: the pre-join preview of a room with Chromium's fake 640x480 camera and microphone, once
// with no effect, once with blur, once with a scene and once with noise suppression alone. For each: Chromium's CPU (all its processes, % of one core) over BENCH_SECONDS (default 20)
// after a warm-up, and the effect's own figures from its worker: time to process one frame (mean and
// 95th percentile of the per-second figures) and frames processed per second.
// Needs the built web app (npm run build) and Debian's Chromium.
//
//   node --import tsx bench/background-effects.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARM_UP_MS = 8_000;
const CLOCK_TICKS = 100; // getconf CLK_TCK on Linux

interface EffectStats {
  frames: number;
  segmentedFrames: number;
  meanMs: number;
  p95Ms: number;
}

const MODES: { name: string; stored: string | undefined; noise?: 'on' }[] = [
  { name: 'none', stored: undefined },
  { name: 'blur', stored: '{"kind":"blur"}' },
  { name: 'scene (sunset)', stored: '{"kind":"scene","scene":"sunset"}' },
  { name: 'noise (RNNoise)', stored: undefined, noise: 'on' },
];

async function startServer(): Promise<{ child: ChildProcess; url: string; slug: string }> {
  const script = new URL('./servers/room.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) {
      const info = JSON.parse(line) as { url: string; slug: string };
      return { child, url: info.url, slug: info.slug };
    }
  }
  throw new Error('the room server exited before it listened');
}

function stat(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** The Chromium started with `tag` on its command line, and every process below it. */
function chromiumProcesses(tag: string): number[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const parents = new Map<number, number>();
  let root: number | undefined;
  for (const pid of all) {
    try {
      parents.set(pid, stat(pid).ppid);
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(tag)) root ??= pid;
    } catch {
      // The process ended meanwhile.
    }
  }
  if (root === undefined) throw new Error('Chromium not found');
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

function treeTicks(pids: number[]) {
  return pids.reduce((sum, pid) => {
    try {
      return sum + stat(pid).ticks;
    } catch {
      return sum;
    }
  }, 0);
}

const server = await startServer();
const tag = `--meetcast-bench=${randomBytes(4).toString('hex')}`;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, tag] });
try {
  console.log(`background effects, ${SECONDS} s each, fake 640x480 camera in the pre-join preview`);
  for (const mode of MODES) {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    await context.addInitScript(({ stored, noise }) => {
      if (stored) localStorage.setItem('meetcast.background', stored);
      if (noise) localStorage.setItem('meetcast.noiseSuppression', noise);
      // The bench measures the effect, slow or not: it must not switch itself off.
      (window as unknown as { __meetcastFrameBudgetMs: number }).__meetcastFrameBudgetMs = 60_000;
    }, mode);
    const page = await context.newPage();
    await page.goto(`${server.url}/room/${server.slug}`);
    await page.getByRole('button', { name: 'Join meeting' }).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(WARM_UP_MS);
    const pids = chromiumProcesses(tag);
    const ticksBefore = treeTicks(pids);
    const startedAt = Date.now();
    const samples: (EffectStats & { at: number })[] = [];
    while (Date.now() - startedAt < SECONDS * 1000) {
      await page.waitForTimeout(1000);
      const stats = await page.evaluate(() =>
        (
          window as unknown as { __meetcastBackground?: { stats(): EffectStats | undefined } }
        ).__meetcastBackground?.stats(),
      );
      if (stats && samples.at(-1)?.frames !== stats.frames) samples.push({ ...stats, at: Date.now() });
    }
    const seconds = (Date.now() - startedAt) / 1000;
    const cpu = ((treeTicks(pids) - ticksBefore) / CLOCK_TICKS / seconds) * 100;
    let line = `${mode.name.padEnd(15)} Chromium CPU ${cpu.toFixed(0).padStart(4)} % of one core`;
    if (samples.length > 1) {
      const mean = samples.reduce((sum, sample) => sum + sample.meanMs, 0) / samples.length;
      const p95 = samples.reduce((sum, sample) => sum + sample.p95Ms, 0) / samples.length;
      const fps = ((samples.at(-1)!.frames - samples[0]!.frames) * 1000) / (samples.at(-1)!.at - samples[0]!.at);
      const isSegmented = samples.at(-1)!.segmentedFrames > 0;
      line += `, per frame ${mean.toFixed(1)} ms mean, ${p95.toFixed(1)} ms p95, ${fps.toFixed(1)} fps processed`;
      if (!isSegmented) line += ' (model not loaded!)';
    }
    console.log(line);
    await context.close();
  }
  console.log(
    `machine load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
}
