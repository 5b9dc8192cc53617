/**
 * Issue 45's budget, on the wall clock: the host changes the broadcast's layout → the new picture
 * decoded at a real RTMP receiver, ≤ 500 ms (ADR 039). The real server, Janus and composer (the bench
 * server, as bench/composer.ts); four light participants: three send one solid colour each, the
 * fourth is the painted clock (it beeps, so it is the latest speaker: spotlight's large tile). The
 * receiver decodes every frame small and stamps it with the wall time it came out of its decoder;
 * each frame's layout is read from how much of it each colour covers (composer/layout-frames.ts).
 * The bench calls set-broadcast-overlay.php (grid ↔ spotlight, BENCH_CHANGES times, default 8) and
 * prints, per change and as median and max: set call → first frame that moved, → first frame at the
 * new layout. Beside them, where the time goes: set call → the `broadcast.changed` push at a client
 * of /broadcast-events that sees the room, as the layout page does (its push carries the overlay;
 * one that does not is followed by get-broadcast.php, as the page then does), and the glass-to-glass of the same run (painted clock → decoded:
 * the capture, encode and transport any picture pays). With the load average: the machine is shared.
 *
 *   flock /tmp/e2e.lock node --import tsx bench/layout-change.ts
 *
 * Needs the built web app (npm run build -w @meetcast/web), Debian's Chromium, Xvfb, PulseAudio, ffmpeg.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BROADCAST_EVENT,
  BROADCAST_EVENTS_NAMESPACE,
  BROADCAST_EVENTS_PROTOCOL_VERSION,
  type BroadcastLayout,
} from '@meetcast/contracts';
import { io } from 'socket.io-client';
import { api, startComposerServer, stopComposerServer } from './composer/bench-server';
import { LightClock } from './composer/light-clock';
import { LightParticipant, loopClip } from './composer/light-participant';
import { BenchReceiver } from './composer/receivers';
import { changeTimes, makeColourClip, signatureOf, type StampedSignature } from './composer/layout-frames';
import { percentile } from './percentile';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 8);
const BUDGET_MS = 500;
/** Frames this long after the set call show the new layout settled (a slow change is still caught: see `late`). */
const SETTLED_AFTER_MS = 2500;
const BETWEEN_CHANGES_MS = 4000;
const PORT = 19_760;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => percentile(values, 50);
const ms = (value: number) => `${Math.round(value)} ms`;

const folder = mkdtempSync(join(tmpdir(), 'meetcast-layout-bench-'));
const frames: StampedSignature[] = [];
const receiver = new BenchReceiver(PORT, join(folder, 'received.flv'), true);
receiver.onFrame = (frame, at) => frames.push({ at, signature: signatureOf(frame) });
receiver.start();
/** The composer's step downs (ADR 021): a push started anew, its first second has no picture yet. */
const stepDowns: string[] = [];
const { child, info } = await startComposerServer((line) => {
  if (line.msg.includes('stepping down'))
    stepDowns.push(`${new Date(line.at).toISOString().slice(11, 19)} ${line.msg}`);
});
const participants: LightParticipant[] = [];
const events = io(`${info.url}${BROADCAST_EVENTS_NAMESPACE}`, {
  auth: { protocol: BROADCAST_EVENTS_PROTOCOL_VERSION, meetId: info.slug, token: info.token },
  transports: ['websocket'],
});
let lastPushAt = 0;
let lastPushHadOverlay = false;
events.on(BROADCAST_EVENT, (event: { overlay?: unknown }) => {
  lastPushAt = Date.now();
  lastPushHadOverlay = event.overlay !== undefined;
});
try {
  participants.push(await LightParticipant.join(info, 'Clock', LightClock.start));
  for (const colour of ['red', 'green', 'blue'] as const)
    participants.push(await LightParticipant.join(info, colour, loopClip(makeColourClip(folder, colour))));
  const { id } = await api<{ id: number }>(info, 'add-rtmp-destination.php', {
    name: 'Layout receiver',
    url: receiver.url,
    stream_key: 'bench-key',
  });
  await api(info, 'set-broadcast-overlay.php', { meetId: info.slug, layout: 'grid' }).catch(() => undefined);
  await sleep(5000);
  await api(info, 'start-broadcast.php', { meetId: info.slug, destinations: JSON.stringify([{ connection_id: id }]) });
  await receiver.waitForFirstBytes(30_000);
  // Every camera's first frames on the page, the speaker known, the encode at its pace.
  await sleep(12_000);
  console.log(
    `layout change bench: 4 light participants (clock + red, green, blue), ${CHANGES} changes; load average ${loadavg()}`,
  );

  const results: { to: BroadcastLayout; moved: number; arrived: number; push: number; read: number }[] = [];
  let layout: BroadcastLayout = 'grid';
  for (let change = 0; change < CHANGES; change++) {
    layout = layout === 'grid' ? 'spotlight' : 'grid';
    const keptFrom = frames.findIndex((frame) => frame.at > Date.now() - 1500);
    frames.splice(0, keptFrom === -1 ? frames.length : keptFrom);
    const setAt = Date.now();
    lastPushAt = 0;
    await api(info, 'set-broadcast-overlay.php', { meetId: info.slug, layout });
    const answeredAt = Date.now();
    while (lastPushAt === 0 && Date.now() - setAt < 5000) await sleep(2);
    const pushAt = lastPushAt || NaN;
    // As the layout page does on a push without the overlay (ADR 039: the room's pushes carry it).
    if (!lastPushHadOverlay) await api(info, 'get-broadcast.php', { meetId: info.slug });
    const readAt = Date.now();
    await sleep(Math.max(SETTLED_AFTER_MS + 600, BETWEEN_CHANGES_MS) - (Date.now() - setAt));
    const times = changeTimes(frames, setAt, SETTLED_AFTER_MS);
    if ('failure' in times) {
      console.log(`  change ${change + 1} → ${layout}: not measured: ${times.failure} (load ${loadavg()})`);
      continue;
    }
    results.push({
      to: layout,
      moved: times.movedMs,
      arrived: times.newMs,
      push: pushAt - setAt,
      read: readAt - setAt,
    });
    console.log(
      `  change ${change + 1} → ${layout}: call answered +${answeredAt - setAt}, push heard +${pushAt - setAt}${lastPushHadOverlay ? ' (with the overlay)' : `, overlay read again +${readAt - setAt}`}, ` +
        `first moved frame +${times.movedMs}, first new frame +${times.newMs} ms (load ${loadavg()})`,
    );
  }
  const arrived = results.map((r) => r.arrived);
  const delays = receiver.delays.filter((delay) => delay < 60_000);
  console.log(
    `layout change (set call → first frame at the new layout, decoded at the receiver, wall clock), ${arrived.length} of ${CHANGES} changes: ` +
      `median ${ms(median(arrived))}, max ${ms(Math.max(...arrived))} (budget ≤ ${BUDGET_MS}: median ${(median(arrived) / BUDGET_MS).toFixed(2)}× of it, max ${(Math.max(...arrived) / BUDGET_MS).toFixed(2)}×)`,
  );
  console.log(
    `  where it goes (medians): push heard ${ms(median(results.map((r) => r.push)))}, overlay known (pushed, or read again) ${ms(median(results.map((r) => r.read)))}, ` +
      `first moved frame ${ms(median(results.map((r) => r.moved)))}, first new frame ${ms(median(arrived))}; ` +
      `glass-to-glass of this run (painted clock → decoded, ${delays.length} frames): p50 ${ms(percentile(delays, 50))}, p95 ${ms(percentile(delays, 95))}`,
  );
  console.log(
    `  the receiver had ${receiver.publishers} publisher(s); composer step downs: ${stepDowns.length ? stepDowns.join('; ') : 'none'}`,
  );
  console.log(`machine load average at the end: ${loadavg()}`);
  await api(info, 'stop-broadcast.php', { meetId: info.slug }).catch(() => undefined);
} finally {
  events.disconnect();
  const bounded = (what: string, step: Promise<unknown>) =>
    Promise.race([step, sleep(15_000).then(() => console.error(`teardown: ${what} did not finish in 15 s`))]);
  for (const participant of participants) await bounded('a participant leaving', participant.leave());
  await bounded('the receiver stopping', receiver.stop());
  await bounded('the server stopping', stopComposerServer(child));
  rmSync(folder, { recursive: true, force: true });
}
process.exit(0);
