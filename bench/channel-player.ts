// Channel player figures from one run (budgets in docs/benchmarks/channel-player.md), against the real server, Janus, composer
// and built web app, with one participant whose camera is a painted clock, live to one local RTMP
// receiver that decodes it (the composer's output alone, for comparison):
//  - WebRTC viewer: /channel/{meetId} opened signed out (a fresh browser context each time) → the
//    first decoded frame of its <video>, measured in the page: p50/p95 of N opens (budget p50 ≤ 1.0 s);
//  - glass-to-glass, participant's camera → WebRTC viewer: the clock read back from the viewer's
//    decoded frames (budget p50 ≤ 500 ms), next to the same clock at the RTMP receiver meanwhile;
//  - the same over the HLS fallback (?transport=hls) (budget p50 ≤ 5 s);
//  - VIEWERS light WebRTC viewers (werift, through /janus-watch like the page): how many received no
//    RTP (budget 0), Janus and server CPU per viewer, server RSS growth.
// The clock participant is a light client, as in bench/composer.ts (composer/light-clock.ts): its
// browser would run on its own machine, and a headless Chromium encoding a 720p camera beside the
// composer and the viewers took a core of the two. BENCH_IN_CHROMIUM=1 joins it in Chromium instead.
// BENCH_VIEWER_CORE=N puts the viewers' side (this process with the clock participant and the
// light viewers, its Chromium, the RTMP receiver) on core N, as on a machine of its own, and lets
// the server and its composer use every core: on two cores, a viewer decoding 720p beside the
// composer held the composer's picture back for lip sync with a sound delayed by the contention.
// Env: BENCH_OPENS (20), BENCH_VIEWERS (50), BENCH_SECONDS (30, each measuring window).
// Needs the built web app (npm run build), Debian's Chromium, Xvfb, PulseAudio, ffmpeg and Janus.
// The machine is shared: figures are printed next to the load average.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import {
  api,
  joinParticipants,
  startComposerServer,
  stopComposerServer,
  type ServerInfo,
} from './composer/bench-server';
import { LightClock } from './composer/light-clock';
import { LightParticipant } from './composer/light-participant';
import { coresBetween, snapshot } from './composer/processes';
import { BenchReceiver } from './composer/receivers';
import { LightViewer } from './channel-player/light-viewers';
import { readProbe, startReading, VIEWER_PROBE_SCRIPT, type ProbeState } from './channel-player/viewer-probe';
import { percentile } from './percentile';

const OPENS = Number(process.env.BENCH_OPENS ?? 20);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const IN_CHROMIUM = process.env.BENCH_IN_CHROMIUM === '1';
const VIEWER_CORE = process.env.BENCH_VIEWER_CORE;
/** Light viewers connecting at once. */
const CONNECTING = 5;
/** The local RTMP receiver that decodes the broadcast (ffmpeg listens 100 above); the composer bench uses 19351–19353. */
const RECEIVER_PORT = 19354;

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: number) => `${Math.round(value)} ms`;

interface ViewerState {
  state: string;
  webrtc: { grant: string } | null;
  hls_url: string | null;
}

const viewerState = (info: ServerInfo) =>
  api<ViewerState>({ ...info, token: '' }, 'get-broadcast-viewer.php', { meetId: info.slug });

async function waitForLive(info: ServerInfo, timeoutMs: number) {
  const started = Date.now();
  for (;;) {
    const view = await viewerState(info);
    if (view.state === 'live' && view.webrtc && view.hls_url) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`the broadcast was not live within ${timeoutMs} ms`);
    await sleep(250);
  }
}

/** Polls the page's probe until `isDone` (or the time is up); answers the last reading. */
async function waitForProbe(page: Page, isDone: (probe: ProbeState) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const probe = await readProbe(page);
    if (isDone(probe) || Date.now() > deadline) return probe;
    await sleep(100);
  }
}

/** A signed-out viewer page in a fresh context (no cache, no cookies), probe installed. */
async function openViewer(browser: Browser, info: ServerInfo, query = '') {
  const context = await browser.newContext();
  await context.addInitScript({ content: VIEWER_PROBE_SCRIPT });
  const page = await context.newPage();
  await page.goto(`${info.url}/channel/${info.slug}${query}`);
  return { context, page };
}

const mode = (page: Page) => page.getByTestId('player-mode').getAttribute('data-mode', { timeout: 5000 });
/** The player's transport once it is no longer connecting (null when it never says within 10 s). */
const settledMode = (page: Page) =>
  page
    .locator('[data-testid="player-mode"]:not([data-mode="connecting"])')
    .getAttribute('data-mode', { timeout: 10_000 })
    .catch(() => null);

/**
 * Glass-to-glass read in one viewer page for `seconds` once its picture is there, and over the same
 * window at the RTMP receiver (the composer's own output, before the viewer feed): the difference is
 * the player path's share.
 */
async function glassToGlass(
  browser: Browser,
  info: ServerInfo,
  receiver: BenchReceiver,
  query: string,
  seconds: number,
) {
  const { context, page } = await openViewer(browser, info, query);
  try {
    const first = await waitForProbe(page, (probe) => probe.firstFrameWidth === 1280, 60_000);
    const how = await mode(page).catch(() => null);
    if (first.firstFrameMs === undefined) return { delays: [] as number[], frames: 0, mode: how, composer: [] };
    await sleep(3000);
    await startReading(page);
    receiver.delays.length = 0;
    await sleep(seconds * 1000);
    const probe = await readProbe(page);
    const composer = receiver.delays.filter((delay) => delay < 600_000);
    return { delays: probe.delays, frames: probe.frames, mode: how, firstFrameMs: first.firstFrameMs, composer };
  } finally {
    await context.close();
  }
}

function describeDelays(delays: number[]) {
  if (delays.length === 0) return 'no clock read';
  return `p50 ${ms(percentile(delays, 50))}, p95 ${ms(percentile(delays, 95))}, max ${ms(Math.max(...delays))}`;
}

// Every thread of this process, and whatever it starts from now on, stays on that core.
if (VIEWER_CORE) execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', VIEWER_CORE, String(process.pid)]);
const receiver = new BenchReceiver(
  RECEIVER_PORT,
  join(mkdtempSync(join(tmpdir(), 'meetcast-channel-bench-')), 'r.flv'),
  true,
).start();
const { child, info } = await startComposerServer(undefined, { everyCore: VIEWER_CORE !== undefined });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const lightViewers: LightViewer[] = [];
let lightClock: LightParticipant | undefined;
try {
  if (IN_CHROMIUM) await joinParticipants(browser, info, 1);
  else lightClock = await LightParticipant.join(info, 'Clock', LightClock.start);
  // The worker's spare stage starts with the server: let it be ready, as it is on a running server.
  await sleep(5000);
  const { id: destination } = await api<{ id: number }>(info, 'add-rtmp-destination.php', {
    name: 'Bench receiver',
    url: receiver.url,
    stream_key: 'bench-key',
  });
  await api(info, 'start-broadcast.php', {
    meetId: info.slug,
    destinations: JSON.stringify([{ connection_id: destination }]),
    record: 0,
  });
  const liveMs = await waitForLive(info, 60_000);
  await sleep(3000);
  console.log(
    `channel player bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), one participant (the painted clock, ${IN_CHROMIUM ? 'in Chromium' : 'a light client'}), ` +
      `${VIEWER_CORE === undefined ? 'viewers and server on every core' : `viewers' side on core ${VIEWER_CORE}, server on every core`}; ` +
      `live after ${ms(liveMs)}; load average ${loadavg()}`,
  );

  // 1. Page open → first decoded frame, WebRTC.
  const firstFrames: number[] = [];
  const loaded: number[] = [];
  const steps = new Map<string, number[]>();
  const misses: string[] = [];
  for (let open = 0; open < OPENS; open++) {
    const { context, page } = await openViewer(browser, info);
    try {
      const probe = await waitForProbe(page, (state) => state.firstFrameMs !== undefined, 20_000);
      // The first frame may come before the player has rendered (the early watch shows it in the
      // loader): the transport is read once the player says it plays.
      const how = await settledMode(page);
      if (probe.firstFrameMs === undefined || how !== 'webrtc' || probe.firstFrameWidth !== 1280) {
        const shown = await page
          .evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 60))
          .catch(() => '');
        misses.push(`${how ?? 'no player'}, ${probe.firstFrameWidth} px, page: "${shown}"`);
      } else {
        firstFrames.push(probe.firstFrameMs);
        if (probe.loadedMs !== undefined) loaded.push(probe.loadedMs);
        for (const [step, at] of Object.entries(probe.marks)) steps.set(step, [...(steps.get(step) ?? []), at]);
      }
    } finally {
      await context.close();
    }
  }
  console.log(
    `WebRTC viewer, page open → first decoded frame (${firstFrames.length} of ${OPENS} opens, fresh context each): ` +
      `p50 ${ms(percentile(firstFrames, 50))} (budget ≤ 1000 ms), p95 ${ms(percentile(firstFrames, 95))}, ` +
      `min ${ms(Math.min(...firstFrames))}, max ${ms(Math.max(...firstFrames))}; of which the page's own load (DOMContentLoaded) p50 ${ms(percentile(loaded, 50))}` +
      `${misses.length > 0 ? `; not WebRTC at 1280 px within 20 s: ${misses.join('; ')}` : ''}; load average ${loadavg()}`,
  );

  const order = [
    'htmlLoaded',
    'document',
    'viewerApi',
    'early-watch-fetched',
    'fields-fetched',
    'index-fetched',
    'socket',
    'peer',
    'socketOpen',
    'offer',
    'iceConnected',
    'dtlsConnected',
    'track',
    'decoded',
    'video',
    'attached',
    'loadeddata',
    'playing',
  ];
  console.log(
    `  on the way (p50 since navigation start): ${order
      .filter((step) => steps.has(step))
      .map((step) => `${step} ${ms(percentile(steps.get(step)!, 50))}`)
      .join(', ')}, first frame ${ms(percentile(firstFrames, 50))}`,
  );
  const others = [...steps.keys()]
    .filter((step) => !order.includes(step))
    .map((step) => ({ step, p50: percentile(steps.get(step)!, 50) }));
  console.log(
    `  and the page's other steps (p50): ${others
      .sort((a, b) => a.p50 - b.p50)
      .map(({ step, p50 }) => `${step} ${ms(p50)}`)
      .join(', ')}`,
  );

  // 2. Glass-to-glass over WebRTC.
  const webrtc = await glassToGlass(browser, info, receiver, '', SECONDS);
  console.log(
    `glass-to-glass, camera → WebRTC viewer (${webrtc.mode}; clock read in ${webrtc.delays.length} of ${webrtc.frames} frames over ${SECONDS} s): ` +
      `${describeDelays(webrtc.delays)} (budget p50 ≤ 500 ms); load average ${loadavg()}`,
  );
  console.log(`  meanwhile camera → RTMP receiver (the composer's output alone): ${describeDelays(webrtc.composer)}`);

  // 3. Glass-to-glass over the HLS fallback.
  const hls = await glassToGlass(browser, info, receiver, '?transport=hls', SECONDS);
  console.log(
    `glass-to-glass, camera → HLS viewer (${hls.mode}, ?transport=hls; first frame after ${ms(hls.firstFrameMs ?? NaN)}; ` +
      `clock read in ${hls.delays.length} of ${hls.frames} frames over ${SECONDS} s): ` +
      `${describeDelays(hls.delays)} (budget p50 ≤ 5000 ms); load average ${loadavg()}`,
  );
  console.log(`  meanwhile camera → RTMP receiver (the composer's output alone): ${describeDelays(hls.composer)}`);

  // 4. Light viewers: Janus and server cost per viewer, against the same window with none.
  const measure = async (seconds: number) => {
    const before = snapshot(info.serverPid, info.janusPid, info.dataDir);
    const ownBefore = process.cpuUsage();
    const startedAt = Date.now();
    await sleep(seconds * 1000);
    const after = snapshot(info.serverPid, info.janusPid, info.dataDir);
    const elapsed = (Date.now() - startedAt) / 1000;
    const cores = coresBetween(before, after, elapsed);
    const own = process.cpuUsage(ownBefore);
    const serverRssKb = after.find((p) => p.role === 'server')?.rssKb ?? NaN;
    return {
      janus: cores.get('janus') ?? NaN,
      server: cores.get('server') ?? NaN,
      clients: (own.user + own.system) / 1e6 / elapsed,
      serverRssKb,
      janusRssKb: after.filter((p) => p.role === 'janus').reduce((sum, p) => sum + p.rssKb, 0),
    };
  };
  const idle = await measure(SECONDS);
  const connectFailures: string[] = [];
  let next = 0;
  const connectOne = async () => {
    while (next < VIEWERS) {
      next += 1;
      try {
        lightViewers.push(await LightViewer.open(info.url, info.slug));
      } catch (error) {
        connectFailures.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  const connectStarted = Date.now();
  await Promise.all(Array.from({ length: CONNECTING }, connectOne));
  const connectMs = Date.now() - connectStarted;
  await sleep(5000);
  const packetsBefore = lightViewers.map((viewer) => ({ ...viewer.packets }));
  const watched = await measure(SECONDS);
  const videoRates = lightViewers.map((viewer, i) => (viewer.packets.video - packetsBefore[i]!.video) / SECONDS);
  const videoKbps = lightViewers.map(
    (viewer, i) => ((viewer.packets.videoBytes - packetsBefore[i]!.videoBytes) * 8) / 1000 / SECONDS,
  );
  const silent = lightViewers.filter((viewer) => viewer.packets.video === 0).length;
  const stalled = videoRates.filter((rate) => rate === 0).length;
  const untilRtp = lightViewers.flatMap((viewer) =>
    viewer.firstVideoAt === undefined ? [] : [viewer.firstVideoAt - viewer.startedAt],
  );
  const perViewer = (key: 'janus' | 'server') => ((watched[key] - idle[key]) / Math.max(1, lightViewers.length)) * 100;
  console.log(
    `${VIEWERS} light WebRTC viewers (werift, ${CONNECTING} connecting at once, all in ${ms(connectMs)}): ` +
      `${lightViewers.length} connected, ${connectFailures.length} failed${connectFailures.length > 0 ? ` (${[...new Set(connectFailures)].join('; ')})` : ''}; ` +
      `${silent + connectFailures.length} received no video RTP at all (budget 0), ${stalled} none during the ${SECONDS}-s window; ` +
      `connect → first video RTP p50 ${ms(percentile(untilRtp, 50))}, p95 ${ms(percentile(untilRtp, 95))}; ` +
      `video RTP per viewer ${percentile(videoRates, 50).toFixed(0)} packets/s (min ${Math.min(...videoRates).toFixed(0)}), ` +
      `${percentile(videoKbps, 50).toFixed(0)} kbit/s (min ${Math.min(...videoKbps).toFixed(0)})`,
  );
  console.log(
    `  Janus: ${idle.janus.toFixed(3)} → ${watched.janus.toFixed(3)} cores, ${perViewer('janus').toFixed(2)} % of a core per viewer; ` +
      `RSS ${Math.round(idle.janusRssKb / 1024)} → ${Math.round(watched.janusRssKb / 1024)} MB`,
  );
  console.log(
    `  server (with its in-process composer worker): ${idle.server.toFixed(3)} → ${watched.server.toFixed(3)} cores, ` +
      `${perViewer('server').toFixed(2)} % of a core per viewer; RSS ${Math.round(idle.serverRssKb / 1024)} → ` +
      `${Math.round(watched.serverRssKb / 1024)} MB (${((watched.serverRssKb - idle.serverRssKb) / Math.max(1, lightViewers.length)).toFixed(0)} kB per viewer)`,
  );
  console.log(
    `  the light clients themselves (this process): ${watched.clients.toFixed(2)} cores; load average ${loadavg()}`,
  );
  await Promise.all(lightViewers.splice(0).map((viewer) => viewer.close().catch(() => undefined)));

  await api(info, 'stop-broadcast.php', { meetId: info.slug });
  console.log(`machine load average at the end: ${loadavg()}`);
} finally {
  await Promise.all(lightViewers.map((viewer) => viewer.close().catch(() => undefined)));
  await lightClock?.leave().catch(() => undefined);
  await browser.close();
  await receiver.stop();
  await stopComposerServer(child);
  rmSync(dirname(receiver.file), { recursive: true, force: true });
}
// The light clients' WebRTC (werift) can keep the process alive after they closed (as in
// bench/composer.ts): everything is stopped by now, so it ends here.
process.exit(0);
