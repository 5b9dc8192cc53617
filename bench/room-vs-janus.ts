/// <reference lib="dom" />
// Our room against bare Janus, side by side: in one run, alternating, a guest joins our
// room and a bare page joins a VideoRoom room with Meetecho's janus.js alone (bench/room-vs-janus/),
// both timed from the click on "Join" to the first decoded frame of a participant already there.
// Same Janus (the one our server manages), a room created with the same settings, same Chromium and
// flags, the same in-page probe for both (join-probe.js). Budget: our median / bare median ≤ 1.0.
// Prints median, p95, min, max per world (also apart by which world joined just before), the ratio,
// where each join spends its time (median ms after the click of each step), and the load average at
// start and end; one unmeasured join per world first. Each joiner's tab closes with its unload handlers.
// Needs the built web app (npm run build) and Debian's Chromium.
//   node --import tsx bench/room-vs-janus.ts [--joins=N] [--simulcast]
// `--simulcast` makes the bare page publish three layers, as our client does (default: one, janus.js's default);
// `--marks=FILE` writes each join's marks to FILE as JSON.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { percentile } from './percentile';

const flag = (name: string) => process.argv.slice(2).find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
const JOINS = Number(flag('joins')?.split('=')[1] ?? 10);
const IS_SIMULCAST = Boolean(flag('simulcast'));
/** `--marks=FILE` also writes every join's marks there (JSON), to study single joins. */
const MARKS_FILE = flag('marks')?.split('=')[1];
/** How long a joiner may take before its join counts as "never" (the probe gives up then too). */
const JOIN_TIMEOUT_MS = 35_000;
/** After a joiner's context closes: its feed leaves both rooms before the next join. */
const SETTLE_MS = 1000;

interface ServerInfo {
  url: string;
  slug: string;
  serverPid: number;
  janusPid: number;
  janus: { url: string; apiSecret: string; room: number; pin: string };
}
type World = 'our room' | 'bare Janus';
interface Probe {
  firstFrameMs: number | undefined;
  isDone: boolean;
  marks: Record<string, number>;
}
interface Join {
  world: World;
  ms: number;
  marks: Record<string, number>;
  /** The world of the join just before this one: Janus may still be tidying up after it. */
  after?: World;
}

async function startServer(): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const script = new URL('./servers/room.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { child, info: JSON.parse(line) as ServerInfo };
  }
  throw new Error('the room server exited before it listened');
}

/** The bare page and what it loads, read from this folder and node_modules, on a loopback port. */
async function serveBarePage(): Promise<{ server: Server; url: string }> {
  const require = createRequire(import.meta.url);
  const files: Record<string, [path: string, type: string]> = {
    '/': [new URL('./room-vs-janus/bare-page.html', import.meta.url).pathname, 'text/html'],
    '/bare-page.js': [new URL('./room-vs-janus/bare-page.js', import.meta.url).pathname, 'text/javascript'],
    '/janus.es.js': [require.resolve('janus-gateway'), 'text/javascript'],
    '/adapter.js': [require.resolve('webrtc-adapter/out/adapter.js'), 'text/javascript'],
  };
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://localhost').pathname];
    if (!file) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': `${file[1]}; charset=utf-8` }).end(readFileSync(file[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function barePageUrl(pageUrl: string, info: ServerInfo, display: string) {
  const query = new URLSearchParams({
    server: info.janus.url,
    apisecret: info.janus.apiSecret,
    room: String(info.janus.room),
    pin: info.janus.pin,
    display,
    ...(IS_SIMULCAST ? { simulcast: '1' } : {}),
  });
  return `${pageUrl}/?${query}`;
}

const newContext = (browser: Browser) => browser.newContext({ permissions: ['camera', 'microphone'] });

/** Both worlds' participant already there, publishing the fake camera and microphone. */
async function joinPresent(browser: Browser, info: ServerInfo, pageUrl: string): Promise<BrowserContext[]> {
  const ours = await newContext(browser);
  const ourPage = await ours.newPage();
  await ourPage.goto(`${info.url}/room/${info.slug}`);
  await ourPage.getByLabel('Your name').fill('Present');
  await ourPage.getByRole('button', { name: 'Join meeting' }).click();
  await ourPage.getByRole('toolbar', { name: 'Meeting controls' }).waitFor({ timeout: 60_000 });
  await ourPage.waitForFunction(
    () =>
      (
        window as unknown as { __meetcastRoom?: { publisherConnection(): RTCPeerConnection | undefined } }
      ).__meetcastRoom?.publisherConnection()?.connectionState === 'connected',
    null,
    { timeout: 60_000 },
  );
  const bare = await newContext(browser);
  const barePage = await bare.newPage();
  await barePage.goto(barePageUrl(pageUrl, info, 'Present'));
  await barePage.getByRole('button', { name: 'Join' }).click();
  await barePage.getByRole('status').filter({ hasText: 'publishing' }).waitFor({ timeout: 60_000 });
  return [ours, bare];
}

/** A fresh guest joins one world; the probe in its page times the click to the first frame. */
async function joinOnce(browser: Browser, info: ServerInfo, pageUrl: string, world: World, name: string) {
  const context = await newContext(browser);
  try {
    await context.addInitScript({ path: new URL('./room-vs-janus/join-probe.js', import.meta.url).pathname });
    const page = await context.newPage();
    if (world === 'our room') {
      await page.goto(`${info.url}/room/${info.slug}`);
      await page.getByLabel('Your name').fill(name);
    } else {
      await page.goto(barePageUrl(pageUrl, info, name));
    }
    await page.waitForLoadState('networkidle');
    // Playwright injects its page script on the first wait for a function: that would be in the join
    // (~330 kB evaluated on the page's main thread, 80-130 ms under load), so it is done before the click.
    await page.waitForFunction(() => true);
    await page.getByRole('button', { name: world === 'our room' ? 'Join meeting' : 'Join', exact: true }).click();
    const probe = await readProbe(page);
    // The tab closes as a person closes it: its unload handlers run (janus.js destroys its session
    // there), instead of the connection just dropping and its session lingering in Janus.
    await page.close({ runBeforeUnload: true });
    return { world, ms: probe.firstFrameMs ?? Number.POSITIVE_INFINITY, marks: probe.marks } satisfies Join;
  } finally {
    await context.close();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }
}

async function readProbe(page: Page): Promise<Probe> {
  const read = () => page.evaluate(() => (window as unknown as { __joinProbe: Probe }).__joinProbe);
  await page
    .waitForFunction(() => (window as unknown as { __joinProbe?: Probe }).__joinProbe?.isDone, null, {
      polling: 100,
      timeout: JOIN_TIMEOUT_MS,
    })
    .catch(() => undefined);
  return read();
}

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'never');
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function printWorld(world: World, joins: Join[]) {
  const times = joins.filter((j) => j.world === world).map((j) => j.ms);
  console.log(
    `  ${world.padEnd(10)}: median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, ` +
      `min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}  (each: ${times.map((t) => ms(t).replace(' ms', '')).join(' ')})`,
  );
  // Each world's join right after its own previous one can be slower (Janus still tidying up after
  // it): the medians apart show whether one world's figure carries more of that than the other's.
  const after = (previous: World) => joins.filter((j) => j.world === world && j.after === previous).map((j) => j.ms);
  const [own, other] = [after(world), after(world === 'our room' ? 'bare Janus' : 'our room')];
  console.log(
    `${''.padEnd(14)}right after a join of its own world: median ${ms(percentile(own, 50))} (${own.length}); ` +
      `after the other world's: median ${ms(percentile(other, 50))} (${other.length})`,
  );
}

/** Each step's median time after the click, over the joins that reached it, in the order they happen. */
function printSteps(world: World, joins: Join[]) {
  const mine = joins.filter((j) => j.world === world);
  const steps = new Map<string, number[]>();
  for (const join of mine) {
    for (const [step, at] of Object.entries(join.marks)) steps.set(step, [...(steps.get(step) ?? []), at]);
  }
  const rows = [...steps].map(([step, times]) => ({ step, median: percentile(times, 50), count: times.length }));
  console.log(`  ${world}:`);
  for (const row of rows.sort((a, b) => a.median - b.median)) {
    const reached = row.count === mine.length ? '' : ` (in ${row.count} of ${mine.length} joins)`;
    console.log(`    ${String(row.median).padStart(6)}  ${row.step}${reached}`);
  }
}

/** The join cut in consecutive phases (probe marks; '' is the click): their medians show where ours loses time. */
const PHASES: [label: string, from: string, to: string][] = [
  // Our page opens the WebSocket, the session and both handles on the pre-join screen (ADR 016); its
  // click asks for the grant. The bare page does all of it after the click.
  ['click to publisher join sent', '', 'publisher: join sent'],
  ['publisher joined', 'publisher: join sent', 'publisher: joined'],
  ['subscriber handle attached, offer received', 'publisher: joined', 'subscriber: offer received (attached)'],
  ['answer made and sent (start)', 'subscriber: offer received (attached)', 'subscriber: answer sent (start)'],
  ['ICE and DTLS of the subscriber', 'subscriber: answer sent (start)', 'subscriber pc: DTLS connected'],
  ['first frame after DTLS (keyframe wait)', 'subscriber pc: DTLS connected', 'first frame decoded'],
];

function printPhases(joins: Join[]) {
  const phase = (world: World, from: string, to: string) => {
    const spans = joins
      .filter((j) => j.world === world && (from === '' || from in j.marks) && to in j.marks)
      .map((j) => j.marks[to]! - (from === '' ? 0 : j.marks[from]!));
    return spans.length ? percentile(spans, 50) : Number.NaN;
  };
  console.log(
    `  ${'phase (median ms)'.padEnd(45)} ${'bare'.padStart(6)} ${'ours'.padStart(6)} ${'ours-bare'.padStart(9)}`,
  );
  for (const [label, from, to] of PHASES) {
    const bare = phase('bare Janus', from, to);
    const ours = phase('our room', from, to);
    console.log(
      `  ${label.padEnd(45)} ${String(bare).padStart(6)} ${String(ours).padStart(6)} ${String(ours - bare).padStart(9)}`,
    );
  }
}

if (!existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) {
  throw new Error('apps/web/dist is missing: run `npm run build` first');
}
console.log(`load average at start: ${loadAverage()}`);
const { child, info } = await startServer();
const page = await serveBarePage();
let browser: Browser | undefined;
try {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const present = await joinPresent(browser, info, page.url);
  const warmUp = [
    await joinOnce(browser, info, page.url, 'our room', 'Warm-up'),
    await joinOnce(browser, info, page.url, 'bare Janus', 'Warm-up'),
  ];
  const joins: Join[] = [];
  for (let i = 0; i < JOINS; i++) {
    // Each round starts with the other world, so that neither always follows the same one.
    const order: World[] = i % 2 === 0 ? ['our room', 'bare Janus'] : ['bare Janus', 'our room'];
    for (const world of order) {
      const after = joins.at(-1)?.world ?? warmUp.at(-1)!.world;
      joins.push({ ...(await joinOnce(browser, info, page.url, world, `Guest ${i + 1}`)), after });
    }
  }
  await Promise.all(present.map((context) => context.close()));

  console.log(
    `click "Join" to the first decoded frame of the participant already there, ${JOINS} joins each, alternating` +
      ` (bare page publishes ${IS_SIMULCAST ? 'simulcast' : 'one layer'}; unmeasured warm-up: ` +
      `${warmUp.map((j) => `${j.world} ${ms(j.ms)}`).join(', ')})`,
  );
  printWorld('bare Janus', joins);
  printWorld('our room', joins);
  const median = (world: World, after?: World) =>
    percentile(
      joins.filter((j) => j.world === world && (after === undefined || j.after === after)).map((j) => j.ms),
      50,
    );
  const ratio = median('our room') / median('bare Janus');
  console.log(`  ratio our room / bare Janus (medians): ${ratio.toFixed(2)}× (budget ≤ 1.0×)`);
  // What a strictly alternating bench (ours, bare, ours, bare…) would see: each join after the other world's.
  const crossed = median('our room', 'bare Janus') / median('bare Janus', 'our room');
  console.log(`  the same over the joins that followed the other world's: ${crossed.toFixed(2)}×`);
  console.log("where the time goes, phase by phase (each phase's own median, so they need not add up exactly):");
  printPhases(joins);
  console.log('and step by step (median ms after the click when each step first happened):');
  printSteps('bare Janus', joins);
  printSteps('our room', joins);
  console.log(`load average at the end: ${loadAverage()}`);
  if (MARKS_FILE) writeFileSync(MARKS_FILE, JSON.stringify(joins, null, 1));
} finally {
  await browser?.close();
  page.server.close();
  child.kill('SIGTERM');
}
