// Broadcast composer figures from one run (budgets in docs/benchmarks/composer-go-live.md), against the real server, Janus and composer:
//  - go live → first RTMP bytes at a local receiver (budget ≤ 5 s), with the composer's own step timings;
//  - composer + encoder CPU at 720p30 with 4 tiles (4 participants), audio, the
//    recording and 2 destinations: mean and p95 of 1-s samples in cores (budgets ≤ 0.8 and ≤ 1.0), and
//    the idle spare composer's cost;
//  - the cost of a third destination (budget ≤ 0.05 core);
//  - glass-to-glass: a clock painted into one participant's camera, read back from the decoded
//    broadcast (budgets p50 ≤ 400 ms, p95 ≤ 800 ms);
//  - a receiver killed: its destination shows "reconnecting" within 5 s, the other loses 0 frames;
//  - sound against picture in the recording (the clock's camera flashes while the microphones beep);
//  - with --soak=MIN, every process's memory over MIN minutes (budget: flat within 10 %).
// BENCH_QUALITY=1080p30 (with COMPOSER_CORES=8 so that the capacity rule grants it) measures 1080p30.
// BENCH_PARTICIPANTS (default 4) sets how many participants join, as light clients that publish
// through the room's own calls as if their browsers ran on their own machines
// (composer/light-participant.ts): the first paints the clock and beeps (composer/light-clock.ts),
// the others send a looped clip without encoding it. BENCH_IN_CHROMIUM=N joins the first N in
// headless Chromium instead, the clock's painted by its page (browsers beside the composer starve
// two cores, ADR 014); BENCH_PARTICIPANT_CHROMIUM runs them in another executable (for example a
// `taskset` wrapper). BENCH_KEEP=1 keeps the recording
// (composer-bench-recording.mp4 in the system's temporary folder).
// Needs the built web app (npm run build), Debian's Chromium, Xvfb, PulseAudio and ffmpeg.
// The machine is shared: CPU figures are printed next to the load average.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import {
  api,
  joinParticipants,
  startComposerServer,
  stopComposerServer,
  type ServerInfo,
} from './composer/bench-server';
import { composerCores, coresBetween, snapshot } from './composer/processes';
import { LightClock } from './composer/light-clock';
import { LightParticipant, loopClip, makeParticipantClip } from './composer/light-participant';
import { BenchReceiver, framesMissing, videoTimes } from './composer/receivers';
import { memoryDrift, sampleMemory } from './composer/soak';
import { describeSync, soundMinusPicture } from './composer/av-sync';
import { SYNC_PERIOD_S } from './composer/timestamp-code';
import { percentile } from './percentile';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** BENCH_QUALITY=1080p30 asks for 1080p (ADR 050); with COMPOSER_CORES=8 the capacity rule grants it. */
const QUALITY = process.env.BENCH_QUALITY;
const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 4);
const IN_CHROMIUM = Math.min(PARTICIPANTS, Number(process.env.BENCH_IN_CHROMIUM ?? 0));
const soakArgument = process.argv.find((arg) => arg.startsWith('--soak='));
const SOAK_MINUTES = soakArgument ? Number(soakArgument.slice('--soak='.length)) : 0;
const PORTS = { a: 19351, b: 19352, c: 19353 }; // ffmpeg listens 100 above, behind each receiver's relay

interface Destination {
  connection_id: number;
  state: string;
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const f2 = (value: number) => value.toFixed(2);

/** The composer's log lines (pino JSON) with the time they were written: its step timings. */
const composerLog: { at: number; msg: string }[] = [];

const destinations = (info: ServerInfo) =>
  api<{ state: string; destinations: Destination[] }>(info, 'get-broadcast.php', { meetId: info.slug });

async function waitForDestination(info: ServerInfo, id: number, state: string, timeoutMs: number) {
  const started = Date.now();
  for (;;) {
    const broadcast = await destinations(info);
    if (broadcast.destinations.find((d) => d.connection_id === id)?.state === state) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`destination ${id} not ${state} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** One-second CPU samples of every process under the server, for `seconds`. */
async function sampleCpu(info: ServerInfo, seconds: number) {
  const samples: Map<string, number>[] = [];
  let before = snapshot(info.serverPid, info.janusPid, info.dataDir);
  let beforeAt = Date.now();
  const first = before;
  const startedAt = beforeAt;
  while (Date.now() - startedAt < seconds * 1000) {
    await sleep(1000);
    const after = snapshot(info.serverPid, info.janusPid, info.dataDir);
    const now = Date.now();
    samples.push(coresBetween(before, after, (now - beforeAt) / 1000));
    before = after;
    beforeAt = now;
  }
  const whole = coresBetween(first, before, (beforeAt - startedAt) / 1000);
  return { samples, whole, last: before };
}

function describeCores(cores: Map<string, number>) {
  return [...cores]
    .filter(([, value]) => value >= 0.005)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key.replace(/rtmp:\/\/127\.0\.0\.1:(\d+)\S*/, ':$1')} ${f2(value)}`)
    .join(', ');
}

function goLiveSteps(since: number) {
  return composerLog
    .filter((line) => line.at >= since)
    .map((line) => `    +${line.at - since} ms ${line.msg.replace(/^composer: /, '')}`)
    .join('\n');
}

const folder = mkdtempSync(join(tmpdir(), 'meetcast-composer-bench-'));
const receivers = {
  a: new BenchReceiver(PORTS.a, join(folder, 'a.flv'), false).start(),
  b: new BenchReceiver(PORTS.b, join(folder, 'b.flv'), false).start(),
  c: new BenchReceiver(PORTS.c, join(folder, 'c.flv'), true).start(),
};
const { child, info } = await startComposerServer((line) => {
  composerLog.push(line);
  if (process.env.BENCH_VERBOSE) console.error(`[${new Date(line.at).toISOString().slice(11, 23)}] ${line.msg}`);
});
const browser =
  IN_CHROMIUM > 0
    ? await chromium.launch({
        executablePath: process.env.BENCH_PARTICIPANT_CHROMIUM ?? CHROMIUM_PATH,
        args: CHROMIUM_ARGS,
      })
    : undefined;
const lightParticipants: LightParticipant[] = [];
try {
  const connection = async (name: string, port: number) =>
    (
      await api<{ id: number }>(info, 'add-rtmp-destination.php', {
        name,
        url: `rtmp://127.0.0.1:${port}/live`,
        stream_key: 'bench-key',
      })
    ).id;
  const ids = { a: await connection('Receiver A', PORTS.a), b: await connection('Receiver B', PORTS.b) };
  const idC = await connection('Receiver C', PORTS.c);
  if (browser) await joinParticipants(browser, info, IN_CHROMIUM);
  const clip = loopClip(makeParticipantClip(folder));
  for (let n = IN_CHROMIUM + 1; n <= PARTICIPANTS; n++) {
    const name = n === 1 ? 'Clock' : `Participant ${n}`;
    lightParticipants.push(await LightParticipant.join(info, name, n === 1 ? LightClock.start : clip));
  }
  // The worker's spare stage starts with the server: let it be ready, as it is on a running server.
  await sleep(5000);
  console.log(
    `composer bench: ${PARTICIPANTS} participants in the room, ${IN_CHROMIUM} in Chromium (the first one the clock), the others light clients; load average ${loadavg()}`,
  );

  // 1. Go live → first bytes.
  const clickedAt = Date.now();
  await api(info, 'start-broadcast.php', {
    meetId: info.slug,
    destinations: JSON.stringify([{ connection_id: ids.a }, { connection_id: ids.b }]),
    record: 1,
    ...(QUALITY ? { quality: QUALITY } : {}),
  });
  const [firstA, firstB] = await Promise.all([
    receivers.a.waitForFirstBytes(30_000),
    receivers.b.waitForFirstBytes(30_000),
  ]);
  console.log(
    `go live → first media bytes at the receivers' sockets: ${firstA.socket - clickedAt} and ${firstB.socket - clickedAt} ms (budget ≤ 5000); ` +
      `in their files (after ffmpeg's own 1 s probe): ${firstA.file - clickedAt} and ${firstB.file - clickedAt} ms; load average ${loadavg()}`,
  );
  console.log(goLiveSteps(clickedAt));
  await waitForDestination(info, ids.a, 'live', 30_000);
  await waitForDestination(info, ids.b, 'live', 30_000);
  await sleep(5000);

  // 2. CPU at 720p30 (or BENCH_QUALITY), 4 tiles, audio, recording, 2 destinations.
  const benchBefore = { cpu: process.cpuUsage(), at: Date.now() };
  const two = await sampleCpu(info, SECONDS);
  const benchUsed = process.cpuUsage(benchBefore.cpu);
  const benchCores = (benchUsed.user + benchUsed.system) / 1000 / (Date.now() - benchBefore.at);
  const perSecond = two.samples.map(composerCores);
  console.log(
    `composer CPU (${QUALITY ?? '720p30'}, ${PARTICIPANTS} tiles, audio, recording, 2 destinations, ${SECONDS} s): mean ${f2(mean(perSecond))} cores (budget ≤ 0.8), p95 ${f2(percentile(perSecond, 95))} (budget ≤ 1.0); load average ${loadavg()}`,
  );
  console.log(`  by process (mean cores): ${describeCores(two.whole)}`);
  console.log(
    `  outside the composer: this bench process (the light participants' WebRTC, the receivers' relays) ${f2(benchCores)} cores`,
  );
  const spareRss = two.last.filter((p) => p.role === 'spare').reduce((sum, p) => sum + p.rssKb, 0);
  console.log(
    `  idle spare composer: ${f2(two.whole.get('spare') ?? 0)} core, ${Math.round(spareRss / 1024)} MB resident`,
  );

  // 3. A third destination.
  await api(info, 'change-broadcast-destination.php', {
    meetId: info.slug,
    destination: JSON.stringify([{ connection_id: idC }]),
  });
  await waitForDestination(info, idC, 'live', 30_000);
  await sleep(3000);
  receivers.c.delays.length = 0;
  const three = await sampleCpu(info, Math.max(20, SECONDS / 2));
  const perSecondThree = three.samples.map(composerCores);
  const pusherC = [...three.whole].find(([key]) => key.includes(`:${PORTS.c}/`))?.[1] ?? NaN;
  console.log(
    `third destination: its pusher ${pusherC.toFixed(3)} core (budget ≤ 0.05); server process ${f2(two.whole.get('server') ?? 0)} → ${f2(three.whole.get('server') ?? 0)}; composer in all ${f2(mean(perSecond))} → ${f2(mean(perSecondThree))} (noisy on a shared machine)`,
  );

  // 4. Glass-to-glass, from the frames receiver C decoded meanwhile.
  const delays = receivers.c.delays.filter((delay) => delay < 60_000);
  console.log(
    `glass-to-glass (painted clock → decoded at receiver C, read in ${delays.length} of ${receivers.c.frames} frames): p50 ${Math.round(percentile(delays, 50))} ms (budget ≤ 400), p95 ${Math.round(percentile(delays, 95))} ms (budget ≤ 800), max ${Math.round(Math.max(...delays))} ms`,
  );

  // 5. Receiver B dies.
  receivers.b.kill();
  const noticedMs = await waitForDestination(info, ids.b, 'reconnecting', 30_000).catch(() => NaN);
  console.log(`receiver B killed: its destination showed "reconnecting" after ${noticedMs} ms (budget ≤ 5000)`);
  await sleep(10_000);

  // 6. Memory soak.
  if (SOAK_MINUTES > 0) {
    const series = await sampleMemory(
      () => snapshot(info.serverPid, info.janusPid, info.dataDir),
      SOAK_MINUTES * 60_000,
      (message) => console.log(message),
    );
    for (const line of memoryDrift(series)) console.log(line);
  }

  // Stop; the recording and receiver A are checked afterwards.
  const stopped = await api<{ state: string; recording: { duration: number } | null }>(info, 'stop-broadcast.php', {
    meetId: info.slug,
  });
  for (let waited = 0; stopped.state === 'live' || stopped.state === 'starting'; waited += 250) {
    if (waited > 60_000) throw new Error('the broadcast did not end within a minute of stop');
    await sleep(250);
    Object.assign(stopped, await destinations(info));
  }
  // The recording is joined and made seekable after the state says ended: a long one takes a while.
  for (let waited = 0; !stopped.recording && waited <= 300_000; waited += 1000) {
    await sleep(1000);
    Object.assign(stopped, await destinations(info));
  }
  await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
  const recordings = join(info.dataDir, 'recordings');
  const recording = readdirSync(recordings).find((name) => name.endsWith('.mp4') && !name.endsWith('.part.mp4'));
  if (recording) {
    const a = framesMissing(videoTimes(receivers.a.largestFile), videoTimes(join(recordings, recording)));
    console.log(
      `receiver A over the whole run (B's drop included): ${a.received} video frames of the ${a.expected} the recording holds for that span, ${a.missing} missing (budget 0)${receivers.a.publishers > 1 ? `; its pusher connected ${receivers.a.publishers} times (the longest connection counted)` : ', one connection throughout'}`,
    );
    if (process.env.BENCH_KEEP)
      copyFileSync(join(recordings, recording), join(tmpdir(), 'composer-bench-recording.mp4'));
    // The Node clock's stand-in microphone reads 130-150 ms later than a browser's (ADR 014).
    const clockNote = IN_CHROMIUM > 0 ? '' : ' [clock from Node: take this figure with BENCH_IN_CHROMIUM=1]';
    console.log(
      `in the recording, ${describeSync(soundMinusPicture(join(recordings, recording), SYNC_PERIOD_S))}${clockNote}`,
    );
  }
  console.log(
    `broadcast ${stopped.state}; recording ${stopped.recording ? `${Math.round(stopped.recording.duration)} s` : 'missing'}`,
  );
  console.log(`machine load average at the end: ${loadavg()}`);
} finally {
  await Promise.all(lightParticipants.map((participant) => participant.leave()));
  await browser?.close();
  await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
  await stopComposerServer(child);
  rmSync(folder, { recursive: true, force: true });
}
// Once, the process did not end by itself after its last figure, with the light participants'
// WebRTC (werift) closed: everything is stopped by now, so it ends here.
process.exit(0);
