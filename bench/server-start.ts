// Start-up time (process start to the first 200 from /readyz) and memory at idle (the process's RSS
// 10 s after it was ready) of the compiled server (`npm start`) against the TypeScript run through tsx
// that `npm start` was before ADR 033, side by side, alternating, on the same warm PGlite data folder.
//   node --import tsx bench/server-start.ts [--rounds=5] [--no-build]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@meetcast/server/tooling';
import { percentile } from './percentile.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.argv.find((arg) => arg.startsWith('--rounds='))?.split('=')[1] ?? 5);
const IDLE_MS = 10_000;

const VARIANTS = {
  compiled: ['--conditions=meetcast-compiled', 'apps/server/dist/main.js'],
  tsx: ['--import', 'tsx', 'apps/server/src/main.ts'],
} as const;
type Variant = keyof typeof VARIANTS;

interface Run {
  startMs: number;
  idleRssMb: number;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) / 1024;
}

/** One start of the server, node itself as the process (no npm in between), to its first ready answer. */
async function startOnce(variant: Variant, dataDir: string, idleMs: number): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, VARIANTS[variant], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      // The composer's spare Chromium would start beside the measurement and take the CPU from it.
      COMPOSER_SPARES: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant} exited with ${child.exitCode} during its start`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      if (ready?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const startMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return { startMs, idleRssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

if (!process.argv.includes('--no-build')) {
  const buildStarted = performance.now();
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
  console.log(`npm run build:server: ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`);
}

const runs: Record<Variant, Run[]> = { compiled: [], tsx: [] };
const dataDirs = Object.fromEntries(
  Object.keys(VARIANTS).map((variant) => [variant, mkdtempSync(join(tmpdir(), `meetcast-start-${variant}-`))]),
) as Record<Variant, string>;
try {
  // The first start of each makes its data folder (PGlite's initdb, the migrations): not counted.
  for (const variant of Object.keys(VARIANTS) as Variant[]) await startOnce(variant, dataDirs[variant], 0);
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating, so that a change of the machine's load falls on both alike.
    const order: Variant[] = round % 2 === 0 ? ['compiled', 'tsx'] : ['tsx', 'compiled'];
    for (const variant of order) runs[variant].push(await startOnce(variant, dataDirs[variant], IDLE_MS));
  }
} finally {
  for (const dataDir of Object.values(dataDirs)) rmSync(dataDir, { recursive: true, force: true });
}

const median = (values: number[]) => percentile(values, 50);
const row = (label: string, values: (variant: Variant) => number[], unit: string, digits: number) =>
  `${label.padEnd(26)}${(['compiled', 'tsx'] as const)
    .map((variant) => `${median(values(variant)).toFixed(digits)} ${unit}`.padStart(14))
    .join('')}${(median(values('compiled')) / median(values('tsx'))).toFixed(2).padStart(10)}x`;
console.log(
  `${ROUNDS} rounds, load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
console.log(`${''.padEnd(26)}${'compiled'.padStart(14)}${'tsx'.padStart(14)}${'ratio'.padStart(11)}`);
console.log(row('start to /readyz (median)', (variant) => runs[variant].map((run) => run.startMs), 'ms', 0));
console.log(row('RSS 10 s after (median)', (variant) => runs[variant].map((run) => run.idleRssMb), 'MB', 1));
for (const variant of ['compiled', 'tsx'] as const) {
  const each = runs[variant].map((run) => `${run.startMs.toFixed(0)} ms/${run.idleRssMb.toFixed(0)} MB`);
  console.log(`${variant.padEnd(9)} each run: ${each.join(', ')}`);
}
