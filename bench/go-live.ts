/**
 * "Go live" clicked IN THE PAGE → first media bytes at the receiver, over N go-lives
 * (BENCH_RUNS, default 10), against the real server, Janus and composer (bench/servers/composer.ts,
 * which allows loopback RTMP with RTMP_ALLOW_PRIVATE). The host is in the room in headless Chromium
 * and goes live from the Live panel to an RTMP address; each go-live has its own receiver, an
 * `ffmpeg -listen 1` behind a relay that notes when media (more than a handshake) first arrives and
 * how many publishers came: more than one means the first connection was aborted. Budget: p50 ≤ 5 s,
 * p95 ≤ 8 s, 0 aborted. Needs the built web app (npm run build), Debian's Chromium, Xvfb, PulseAudio
 * and ffmpeg.
 *
 *   node --import tsx bench/go-live.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { api, startComposerServer, stopComposerServer } from './composer/bench-server';
import { BenchReceiver } from './composer/receivers';
import { percentile } from './percentile';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
/** Each run's receiver relays on BASE_PORT + 2·run (its ffmpeg listens 100 above). */
const BASE_PORT = 19_500;
/** After a stop the worker launches its spare stage again: a running server has one ready. */
const SPARE_READY_MS = 8000;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const folder = mkdtempSync(join(tmpdir(), 'meetcast-go-live-bench-'));
const { child, info } = await startComposerServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const firstMediaMs: number[] = [];
let aborted = 0;
const receivers: BenchReceiver[] = [];
try {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  await context.addCookies([{ name: 'meetcastUser', value: info.token, url: info.url, sameSite: 'Lax' }]);
  // Every run's destination exists before the page opens: the Live panel lists them from the start.
  for (let run = 0; run < RUNS; run++) {
    const port = BASE_PORT + 2 * run;
    await api(info, 'add-rtmp-destination.php', {
      name: `Receiver ${run + 1}`,
      url: `rtmp://127.0.0.1:${port}/live`,
      stream_key: 'bench-key',
    });
  }
  const page = await context.newPage();
  await page.goto(`${info.url}/room/${info.slug}`);
  await page.getByRole('button', { name: 'Join meeting' }).click({ timeout: 60_000 });
  await page.getByRole('toolbar', { name: 'Meeting controls' }).waitFor({ timeout: 60_000 });
  await sleep(SPARE_READY_MS);
  console.log(`go-live bench: ${RUNS} go-lives, the host alone in the room; load average ${loadavg()}`);

  for (let run = 0; run < RUNS; run++) {
    const port = BASE_PORT + 2 * run;
    const receiver = new BenchReceiver(port, join(folder, `run-${run}.flv`), false).start();
    receivers.push(receiver);
    const panel = page.getByRole('region', { name: 'Live' });
    // The toolbar's button opens the panel (a second click would close it).
    if (!(await panel.isVisible())) await page.getByRole('button', { name: 'Go live' }).first().click();
    for (let other = 1; other <= RUNS; other++) {
      await panel.getByRole('checkbox', { name: new RegExp(`Receiver ${other}(?!\\d)`) }).setChecked(other === run + 1);
    }
    const clickedAt = Date.now();
    await panel.getByRole('button', { name: 'Go live' }).click();
    const { socket } = await receiver.waitForFirstBytes(30_000);
    // A second publisher within a few seconds means the first connection was dropped.
    await sleep(3000);
    const thisAborted = Math.max(0, receiver.publishers - 1);
    aborted += thisAborted;
    firstMediaMs.push(socket - clickedAt);
    console.log(
      `  run ${run + 1}: first media ${socket - clickedAt} ms after the click, aborted connections ${thisAborted}; load ${loadavg()}`,
    );
    await panel.getByRole('button', { name: 'Stop broadcast' }).click();
    await page
      .getByRole('dialog', { name: 'Stop the broadcast?' })
      .getByRole('button', { name: 'Stop broadcast' })
      .click();
    await panel.getByRole('button', { name: 'Set up a new broadcast' }).click({ timeout: 60_000 });
    await receiver.stop();
    await sleep(SPARE_READY_MS);
  }
  const valid = firstMediaMs.filter(Number.isFinite);
  console.log(
    `click → first media bytes: p50 ${percentile(valid, 50)} ms (budget ≤ 5000), p95 ${percentile(valid, 95)} ms ` +
      `(budget ≤ 8000), ${RUNS - valid.length} without media, aborted first connections ${aborted} (budget 0); ` +
      `load average ${loadavg()}`,
  );
} finally {
  await browser.close();
  await Promise.all(receivers.map((receiver) => receiver.stop()));
  await stopComposerServer(child);
  rmSync(folder, { recursive: true, force: true });
}
