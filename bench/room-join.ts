/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Meeting-room media figures from one run (budgets in docs/benchmarks/room-join.md):
//  - join to first remote frame: click "Join meeting" to the first decoded frame of a participant who is
//    already in the room; median of 10 joins (budget < 1.0 s) and p95 (budget < 2.0 s);
//  - 2, 4 and 6 participants each publishing the fake 640x480 camera to all others for BENCH_SECONDS
//    (default 60): CPU of Janus plus our server in % of one core (budget < 30 % for 4), frozen tiles
//    (an inbound video whose decoded frame count stops growing for 3 s; budget 0) and packet loss
//    (budget < 1 %).
//  - with `--cpu-hog[=N]` (N busy-looping processes beside it, default 2, one per core here): the same
//    joins under heavy CPU load, and for each join whether the media watchdog had to repair something
//    and whether either side still had no video after 10 s (target: 0 in 20 joins, `--joins=20`);
//    `--joins-only` skips the group figures.
// Needs the built web app (npm run build) and Debian's Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { percentile } from './percentile';

const flag = (name: string) => process.argv.slice(2).find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
const flagValue = (name: string) => flag(name)?.split('=')[1];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const JOINS = Number(flagValue('joins') ?? process.env.BENCH_JOINS ?? 10);
const GROUPS = flag('joins-only') ? [] : (process.env.BENCH_GROUPS ?? '2,4,6').split(',').map(Number);
const CPU_HOGS = flag('cpu-hog') ? Number(flagValue('cpu-hog') ?? 2) : 0;
/** A join whose either side has no video this long after the click counts as a join without video. */
const NO_VIDEO_MS = 10_000;
const CLOCK_TICKS = 100;
/** After a joiner's tab closes: its feed leaves the room before the next join. */
const SETTLE_MS = 1000; // getconf CLK_TCK on Linux

interface ServerInfo {
  url: string;
  statsUrl: string;
  slug: string;
  serverPid: number;
  janusPid: number;
}
interface Inbound {
  feedId: number;
  participantId: string;
  framesDecoded: number;
  packetsLost: number;
  packetsReceived: number;
}

async function startServer(): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const script = new URL('./servers/room.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { child, info: JSON.parse(line) as ServerInfo };
  }
  throw new Error('the room server exited before it listened');
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15 of stat)
}

const inbound = (page: Page) =>
  page.evaluate(async () => {
    const room = (window as unknown as { __meetcastRoom?: { inboundVideo(): Promise<Inbound[]> } }).__meetcastRoom;
    return (await room?.inboundVideo()) ?? [];
  });

async function open(
  browser: Browser,
  info: ServerInfo,
  name: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.goto(`${info.url}/room/${info.slug}`);
  await page.getByLabel('Your name').fill(name);
  // A person reads the pre-join screen before clicking: the join it prepares (ADR 016) is ready by
  // then, as in bench/room-vs-janus.ts. Playwright's page script, injected on its first wait for a
  // function, is injected now rather than during the join.
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => true);
  return { context, page };
}

/** Clicks Join inside the page and measures there, so that no test-driver round trip is counted. */
async function joinAndTimeFirstFrame(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Join meeting' }).waitFor();
  return page.evaluate(async () => {
    const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent?.includes('Join meeting'));
    const started = performance.now();
    button!.click();
    for (;;) {
      const room = (window as unknown as { __meetcastRoom?: { inboundVideo(): Promise<{ framesDecoded: number }[]> } })
        .__meetcastRoom;
      const stats = (await room?.inboundVideo()) ?? [];
      if (stats.some((s) => s.framesDecoded > 0)) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (performance.now() - started > 30_000) return Number.POSITIVE_INFINITY;
    }
  });
}

/** The anchor decodes frames from a participant it did not see before: the newcomer's video arrived. */
async function timeAnchorSeesNewcomer(anchor: Page, known: Set<string>, clickedAt: number): Promise<number> {
  for (;;) {
    const stats = await inbound(anchor);
    if (stats.some((s) => s.framesDecoded > 0 && !known.has(s.participantId))) return Date.now() - clickedAt;
    if (Date.now() - clickedAt > 30_000) return Number.POSITIVE_INFINITY;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Repair {
  step: string;
  /** Whose page repaired, and why (the watchdog's own words). */
  where: string;
}

/** The watchdog's repairs on `page` since `since`; `earlier`: the participants there before the click. */
const repairsSince = async (page: Page, since: number, side: string, earlier = new Set<string>()): Promise<Repair[]> =>
  (
    await page.evaluate(
      (after) =>
        (
          (
            window as unknown as {
              __meetcastRoom?: { repairs(): { at: number; step: string; reason: string; participantId: string }[] };
            }
          ).__meetcastRoom?.repairs() ?? []
        ).filter((r) => r.at >= after && r.step !== 'recovered'),
      since,
    )
  ).map((r) => ({
    step: r.step,
    where: `${side}, for ${earlier.has(r.participantId) ? 'someone there before' : 'the newcomer'}: ${r.reason}`,
  }));

interface JoinCost {
  queries: number;
  janusRequests: number;
}
const joinCost = async (info: ServerInfo) => (await (await fetch(info.statsUrl)).json()) as JoinCost;
/** What the server did between two readings, less what it does anyway when idle for as long. */
const costBetween = (before: JoinCost, after: JoinCost, idlePerSecond: JoinCost, seconds: number): JoinCost => ({
  queries: after.queries - before.queries - idlePerSecond.queries * seconds,
  janusRequests: after.janusRequests - before.janusRequests - idlePerSecond.janusRequests * seconds,
});

/** The server's own background work (heartbeats, sweeps) per second, with one person in the room. */
async function idleCost(info: ServerInfo): Promise<JoinCost> {
  const before = await joinCost(info);
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const after = await joinCost(info);
  return {
    queries: (after.queries - before.queries) / 6,
    janusRequests: (after.janusRequests - before.janusRequests) / 6,
  };
}

interface JoinResult {
  /** Database statements and Janus requests of the join, on the server. */
  cost: JoinCost;
  /** Click to the newcomer's first decoded frame from the anchor. */
  newcomerMs: number;
  /** Click to the anchor's first decoded frame from the newcomer. */
  anchorMs: number;
  /** The watchdog's steps on either side during this join (keyframe, resubscribe, ...). */
  repairs: Repair[];
}

async function measureJoins(browser: Browser, info: ServerInfo): Promise<JoinResult[]> {
  const anchor = await open(browser, info, 'Anchor');
  await anchor.page.getByRole('button', { name: 'Join meeting' }).click();
  await anchor.page.getByRole('toolbar', { name: 'Meeting controls' }).waitFor({ timeout: 60_000 });
  const idle = await idleCost(info);
  const results: JoinResult[] = [];
  for (let i = 0; i < JOINS; i++) {
    const joiner = await open(browser, info, `Joiner ${i + 1}`);
    const known = new Set((await inbound(anchor.page)).map((s) => s.participantId));
    const costBefore = await joinCost(info);
    const clickedAt = Date.now();
    const [newcomerMs, anchorMs] = await Promise.all([
      joinAndTimeFirstFrame(joiner.page),
      timeAnchorSeesNewcomer(anchor.page, known, clickedAt),
    ]);
    // The join's last steps (attendance, presence) may land just after the first frames.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const cost = costBetween(costBefore, await joinCost(info), idle, (Date.now() - clickedAt) / 1000);
    const repairs = [
      ...(await repairsSince(joiner.page, clickedAt, 'newcomer')),
      ...(await repairsSince(anchor.page, clickedAt, 'the one already there', known)),
    ];
    results.push({ cost, newcomerMs, anchorMs, repairs });
    // The tab closes as a person closes it (its unload handlers leave the room), and its feed is
    // gone before the next join: closing the context alone left it to the session timeout, and the
    // next joins met its frozen feed (watchdog keyframe repairs in 17 of 20 joins).
    await joiner.page.close({ runBeforeUnload: true });
    await joiner.context.close();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }
  await anchor.context.close();
  return results;
}

async function waitAllSeeAll(pages: Page[], others: number) {
  const deadline = Date.now() + 120_000;
  for (const page of pages) {
    for (;;) {
      const stats = await inbound(page);
      if (new Set(stats.filter((s) => s.framesDecoded > 0).map((s) => s.feedId)).size >= others) break;
      if (Date.now() > deadline) throw new Error('participants did not all see each other within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function measureGroup(browser: Browser, info: ServerInfo, size: number) {
  const people = await Promise.all(Array.from({ length: size }, (_, i) => open(browser, info, `P${i + 1}`)));
  for (const person of people) await person.page.getByRole('button', { name: 'Join meeting' }).click();
  await waitAllSeeAll(
    people.map((p) => p.page),
    size - 1,
  );
  const before = await Promise.all(people.map((p) => inbound(p.page)));
  const cpuBefore = cpuTicks(info.janusPid) + cpuTicks(info.serverPid);
  const startedAt = Date.now();
  let frozen = 0;
  let last = before.map((stats) => new Map(stats.map((s) => [s.feedId, { frames: s.framesDecoded, at: Date.now() }])));
  const frozenSeen = new Set<string>();
  while (Date.now() - startedAt < SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await Promise.all(people.map((p) => inbound(p.page)));
    last = now.map((stats, index) => {
      const previous = last[index]!;
      return new Map(
        stats.map((s) => {
          const seen = previous.get(s.feedId);
          if (seen && s.framesDecoded === seen.frames) {
            if (Date.now() - seen.at >= 3000 && !frozenSeen.has(`${index}:${s.feedId}`)) {
              frozenSeen.add(`${index}:${s.feedId}`);
              frozen += 1;
            }
            return [s.feedId, seen];
          }
          return [s.feedId, { frames: s.framesDecoded, at: Date.now() }];
        }),
      );
    });
  }
  const elapsed = (Date.now() - startedAt) / 1000;
  const cpu = ((cpuTicks(info.janusPid) + cpuTicks(info.serverPid) - cpuBefore) / CLOCK_TICKS / elapsed) * 100;
  const after = await Promise.all(people.map((p) => inbound(p.page)));
  let lost = 0;
  let received = 0;
  after.forEach((stats, index) => {
    for (const s of stats) {
      const start = before[index]!.find((b) => b.feedId === s.feedId);
      lost += s.packetsLost - (start?.packetsLost ?? 0);
      received += s.packetsReceived - (start?.packetsReceived ?? 0);
    }
  });
  const frames =
    after.flat().reduce((sum, s) => sum + s.framesDecoded, 0) -
    before.flat().reduce((sum, s) => sum + s.framesDecoded, 0);
  await Promise.all(people.map((p) => p.context.close()));
  return {
    size,
    subscriptions: size * (size - 1),
    cpu,
    frozen,
    loss: received + lost > 0 ? (lost / (received + lost)) * 100 : 0,
    fps: frames / elapsed / Math.max(1, size * (size - 1)),
  };
}

const { child, info } = await startServer();
const hogs = Array.from({ length: CPU_HOGS }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const joins = await measureJoins(browser, info);
  const times = joins.map((j) => j.newcomerMs);
  const median = percentile(times, 50);
  const p95 = percentile(times, 95);
  const seconds = (ms: number) => (Number.isFinite(ms) ? (ms / 1000).toFixed(3) : 'never');
  if (CPU_HOGS) console.log(`with ${CPU_HOGS} CPU hog process(es) busy-looping beside the bench`);
  console.log(
    `join to first remote frame (${times.length} joins): median ${seconds(median)} s (budget ≤ 0.45), p95 ${seconds(p95)} s (≤ 0.8; < 2.0)`,
  );
  console.log(`  each: ${times.map(seconds).join(' ')}`);
  const perJoin = (key: keyof JoinCost) => (joins.reduce((sum, j) => sum + j.cost[key], 0) / joins.length).toFixed(1);
  console.log(
    `  on the server, per join: ${perJoin('queries')} database statements, ${perJoin('janusRequests')} Janus requests (idle background work subtracted)`,
  );
  console.log(`  the one already there sees the newcomer after: ${joins.map((j) => seconds(j.anchorMs)).join(' ')}`);
  const repaired = joins.filter((j) => j.repairs.length > 0).length;
  const steps = new Map<string, number>();
  for (const { step } of joins.flatMap((j) => j.repairs)) steps.set(step, (steps.get(step) ?? 0) + 1);
  const withoutVideo = joins.filter((j) => Math.max(j.newcomerMs, j.anchorMs) > NO_VIDEO_MS).length;
  console.log(
    `joins that needed a watchdog repair: ${repaired} of ${joins.length} (steps: ${[...steps].map(([step, n]) => `${step} ${n}`).join(', ') || 'none'}); ` +
      `joins without video on either side after ${NO_VIDEO_MS / 1000} s: ${withoutVideo} (target 0)`,
  );
  const reasons = new Map<string, number>();
  for (const { step, where } of joins.flatMap((j) => j.repairs)) {
    reasons.set(`${step} on ${where}`, (reasons.get(`${step} on ${where}`) ?? 0) + 1);
  }
  for (const [reason, n] of reasons) console.log(`  ${n}× ${reason}`);
  for (const size of GROUPS) {
    const r = await measureGroup(browser, info, size);
    console.log(
      `${r.size} participants (${r.subscriptions} subscriptions, ${SECONDS} s): Janus+server CPU ${r.cpu.toFixed(1)} % of one core` +
        `${r.size === 4 ? ' (budget < 30)' : ''}, frozen tiles ${r.frozen}, packet loss ${r.loss.toFixed(2)} %, ${r.fps.toFixed(1)} fps per subscription`,
    );
  }
  console.log(
    `machine load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
} finally {
  for (const hog of hogs) hog.kill('SIGKILL');
  await browser.close();
  child.kill('SIGTERM');
}
