/**
 * Lighthouse on /login: performance at least 95 and accessibility 100, with Lighthouse's
 * default (mobile, simulated throttling) settings and Debian's Chromium. Run `npm run build` first.
 *
 *   node --import tsx bench/lighthouse-login.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';

const BUDGET = { performance: 95, accessibility: 100 };

const server = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('./servers/meetcast.ts', import.meta.url).pathname],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let port = 0;
for await (const line of createInterface({ input: server.stdout })) {
  if (line.startsWith('{')) {
    port = (JSON.parse(line) as { port: number }).port;
    break;
  }
}
const userDataDir = mkdtempSync(join(tmpdir(), 'meetcast-lighthouse-'));
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: ['--headless', ...CHROMIUM_ARGS],
  userDataDir,
});
try {
  const url = `http://127.0.0.1:${port}/login`;
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  if (!result) throw new Error('Lighthouse returned no result');
  // The whole report, for the diagnostics behind the scores (bench/results/ is not committed).
  const resultsDir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'lighthouse-login.json'), JSON.stringify(result.lhr, null, 2));
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const performance = score('performance');
  const accessibility = score('accessibility');
  for (const id of [
    'first-contentful-paint',
    'largest-contentful-paint',
    'total-blocking-time',
    'cumulative-layout-shift',
  ]) {
    console.log(`${audits[id]?.title ?? id}: ${audits[id]?.displayValue ?? '?'}`);
  }
  for (const audit of Object.values(audits)) {
    if (audit.scoreDisplayMode === 'binary' && audit.score === 0)
      console.log(`failed audit: ${audit.id} (${audit.title})`);
  }
  console.log(
    `/login performance ${performance} (budget >= ${BUDGET.performance}), accessibility ${accessibility} (budget ${BUDGET.accessibility})`,
  );
  process.exitCode = performance >= BUDGET.performance && accessibility >= BUDGET.accessibility ? 0 : 1;
} finally {
  chrome.kill();
  server.kill();
  rmSync(userDataDir, { recursive: true, force: true });
}
