/**
 * The frames the composer delivers with 2, 4 and 6 tiles (BENCH_TILES), measured at
 * the receiver from the video packets' timestamps of a real push: packets per second of media over
 * the last BENCH_SECONDS (default 20) of each broadcast, after a 10-s warm-up. The participants are
 * light clients (WebRTC in Node, the first the painted clock). A composer that cannot keep its rate
 * steps down on purpose (ADR 021): that is printed too, from its log. Note: ffmpeg keeps a constant
 * rate by repeating pictures, so packet timestamps count repeats as frames; the step-down line says
 * how many *new* pictures the encoder delivered.
 *
 *   node --import tsx bench/composer-fps.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, startComposerServer, stopComposerServer, type ComposerLogLine } from './composer/bench-server';
import { LightClock } from './composer/light-clock';
import { LightParticipant, loopClip, makeParticipantClip } from './composer/light-participant';
import { BenchReceiver, videoTimes } from './composer/receivers';

const TILES = (process.env.BENCH_TILES ?? '2,4,6').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARM_UP_MS = 10_000;
const PORT = 19_700;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const folder = mkdtempSync(join(tmpdir(), 'meetcast-composer-fps-'));
const steps: ComposerLogLine[] = [];
const { child, info } = await startComposerServer((line) => {
  if (line.msg.includes('stepping down')) steps.push(line);
});
const participants: LightParticipant[] = [];
try {
  const clip = loopClip(makeParticipantClip(folder));
  for (const [index, tiles] of TILES.entries()) {
    while (participants.length < tiles) {
      const n = participants.length + 1;
      participants.push(
        await LightParticipant.join(info, n === 1 ? 'Clock' : `Participant ${n}`, n === 1 ? LightClock.start : clip),
      );
    }
    const port = PORT + 2 * index;
    const receiver = new BenchReceiver(port, join(folder, `tiles-${tiles}.flv`), false).start();
    const { id } = await api<{ id: number }>(info, 'add-rtmp-destination.php', {
      name: `Receiver ${tiles}`,
      url: `rtmp://127.0.0.1:${port}/live`,
      stream_key: 'bench-key',
    });
    const stepsBefore = steps.length;
    await sleep(8000);
    await api(info, 'start-broadcast.php', {
      meetId: info.slug,
      destinations: JSON.stringify([{ connection_id: id }]),
    });
    await receiver.waitForFirstBytes(30_000);
    await sleep(WARM_UP_MS + SECONDS * 1000);
    const load = loadavg();
    await api(info, 'stop-broadcast.php', { meetId: info.slug });
    await receiver.stop();
    const times = videoTimes(receiver.largestFile);
    const end = times.at(-1) ?? 0;
    const window = times.filter((time) => time > end - SECONDS);
    const fps = window.length / Math.max(1e-9, (window.at(-1) ?? 0) - (window[0] ?? 0));
    const stepped = steps.slice(stepsBefore).map((line) => line.msg.replace(/^composer: /, ''));
    console.log(
      `${tiles} tiles: ${fps.toFixed(1)} fps delivered at the receiver (packet timestamps, last ${SECONDS} s); ` +
        `${stepped.length ? `stepped down: ${stepped.join('; ')}` : 'no step down'}; load average ${load}`,
    );
  }
} finally {
  // A teardown step that hangs must not keep the bench from ending (it once sat past its figures).
  const bounded = (what: string, step: Promise<unknown>) =>
    Promise.race([step, sleep(15_000).then(() => console.error(`teardown: ${what} did not finish in 15 s`))]);
  for (const participant of participants) await bounded('a participant leaving', participant.leave());
  await bounded('the server stopping', stopComposerServer(child));
  rmSync(folder, { recursive: true, force: true });
}
process.exit(0);
