/**
 * The composer's encoder alone, on a quiet stage of its own: how long a picture takes from the
 * virtual screen to a decoded frame of the encode, and whether sound and picture stay together.
 *
 * It starts the product's own stage (VirtualScreen, LayoutBrowser, Encoder) and opens a page that,
 * every 2 s on the whole second, flashes white and beeps (the beep scheduled so that it is heard on
 * that second, from the page's audio output timestamp). A decoder reads the encode as it comes and
 * notes when each flash arrives; afterwards the encode is read again for the flash's and the
 * beep's timestamps. Part of glass-to-glass (bench/composer.ts), without the participants' browsers.
 *
 *   node --import tsx bench/composer-encoder.ts   (BENCH_SECONDS, default 20; BENCH_KEEP=1 keeps the encode)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUALITIES } from '../apps/server/src/streaming/composer/capacity';
import { ProcessLedger } from '../apps/server/src/streaming/composer/child-processes';
import { Encoder } from '../apps/server/src/streaming/composer/encoder';
import { LayoutBrowser } from '../apps/server/src/streaming/composer/layout-browser';
import { claimDisplayNumber, VirtualScreen } from '../apps/server/src/streaming/composer/virtual-screen';
import { percentile } from './percentile';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PERIOD_S = 2;
const FLASH_MS = 100;

const FLASH_AND_BEEP_PAGE = `<!doctype html><body style="margin:0;background:#000">
<div id="flash" style="position:fixed;inset:0;background:#000"></div><script>
const flash = document.getElementById('flash');
const audio = new AudioContext({ latencyHint: 'interactive', sampleRate: 48000 });
let scheduled = 0;
function scheduleBeep() {
  const stamp = audio.getOutputTimestamp();
  if (!stamp.performanceTime) return;
  const now = Date.now();
  let second = Math.ceil((now + 300) / 1000) * 1000;
  while ((second / 1000) % ${PERIOD_S} !== 0) second += 1000;
  if (second === scheduled) return;
  scheduled = second;
  const heardAt = stamp.contextTime + (performance.now() + (second - now) - stamp.performanceTime) / 1000;
  const tone = audio.createOscillator();
  tone.frequency.value = 1000;
  tone.connect(audio.destination);
  tone.start(heardAt);
  tone.stop(heardAt + ${FLASH_MS / 1000});
}
function paint() {
  const now = Date.now();
  const isOn = Math.floor(now / 1000) % ${PERIOD_S} === 0 && now % 1000 < ${FLASH_MS};
  flash.style.background = isOn ? '#fff' : '#000';
  if (audio.state !== 'running') void audio.resume();
  scheduleBeep();
  requestAnimationFrame(paint);
}
requestAnimationFrame(paint);
</script></body>`;

/** Decodes the encode as it arrives; records, for each flash, how long after its second it showed. */
function watchFlashes() {
  const width = 16;
  const height = 9;
  const decoder = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-probesize', '32', '-analyzeduration', '0'],
      ...['-fflags', 'nobuffer', '-flags', 'low_delay', '-threads', '1', '-f', 'mpegts', '-i', 'pipe:0'],
      ...['-map', '0:v', '-fps_mode', 'passthrough', '-vf', `scale=${width}:${height},format=gray`],
      ...['-f', 'rawvideo', 'pipe:1'],
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  decoder.stdin.on('error', () => undefined);
  const delays: number[] = [];
  let pending = Buffer.alloc(0);
  let wasLit = false;
  decoder.stdout.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    const size = width * height;
    while (pending.length >= size) {
      const frame = pending.subarray(0, size);
      pending = pending.subarray(size);
      const isLit = frame.reduce((sum, value) => sum + value, 0) / size > 128;
      const sinceSecond = Date.now() % 1000;
      if (isLit && !wasLit) delays.push(sinceSecond > 700 ? sinceSecond - 1000 : sinceSecond);
      wasLit = isLit;
    }
  });
  return { write: (chunk: Buffer) => decoder.stdin.write(chunk), stop: () => decoder.kill('SIGKILL'), delays };
}

/** Timestamps (s) at which a measure printed by ffmpeg's metadata filter crosses the threshold upwards. */
function risingEdges(file: string, stream: 'v' | 'a', filter: string, key: string, threshold: number) {
  const run = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-copyts', '-i', file, '-map', `0:${stream}`],
      ...[
        stream === 'v' ? '-vf' : '-af',
        `${filter},${stream === 'v' ? 'metadata' : 'ametadata'}=print:key=${key}:file=-`,
        '-f',
        'null',
        '-',
      ],
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const edges: number[] = [];
  let time: number | undefined;
  let wasAbove = false;
  for (const line of run.stdout.split('\n')) {
    const stamp = /pts_time:([\d.]+)/.exec(line);
    if (stamp) time = Number(stamp[1]);
    const measured = new RegExp(`${key}=(\\S+)`).exec(line);
    if (!measured || time === undefined) continue;
    const value = Number(measured[1]);
    const isAbove = Number.isFinite(value) && value > threshold;
    if (isAbove && !wasAbove) edges.push(time);
    wasAbove = isAbove;
  }
  return edges;
}

async function main() {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-encoder-bench-'));
  const ledger = new ProcessLedger(folder, 'bench');
  const screen = new VirtualScreen(ledger, folder, claimDisplayNumber(), { width: 1280, height: 720 });
  const browser = new LayoutBrowser(folder, screen, (message) => console.log(message));
  try {
    await screen.start();
    await browser.start();
    await browser.open(`data:text/html,${encodeURIComponent(FLASH_AND_BEEP_PAGE)}`);
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const quality = QUALITIES[0]!;
    const encoder = new Encoder(ledger, screen, quality);
    const flashes = watchFlashes();
    const encode: Buffer[] = [];
    encoder.on('data', (chunk) => {
      encode.push(chunk);
      flashes.write(chunk);
    });
    encoder.start();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    await encoder.stop();
    flashes.stop();

    const file = join(folder, 'encode.ts');
    writeFileSync(file, Buffer.concat(encode));
    const pictures = risingEdges(file, 'v', 'scale=16:9,format=gray,signalstats', 'lavfi.signalstats.YAVG', 128);
    const sounds = risingEdges(
      file,
      'a',
      'asetnsamples=480,astats=metadata=1:reset=1',
      'lavfi.astats.Overall.RMS_level',
      -30,
    );
    const offsets = pictures.flatMap((picture) => {
      const sound = sounds.find((at) => Math.abs(at - picture) < PERIOD_S / 2);
      return sound === undefined ? [] : [Math.round((sound - picture) * 1000)];
    });
    const arrived = flashes.delays.slice(1); // the first may be a flash the encoder caught half-way
    console.log(
      `encoder (${quality.name}, with sound), ${SECONDS} s on a quiet stage; load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `  screen flash → decoded from the encode as it came: p50 ${percentile(arrived, 50)} ms, p95 ${percentile(arrived, 95)} ms (${arrived.length} flashes)`,
    );
    console.log(
      `  sound minus picture in the encode (negative: the beep comes first): p50 ${percentile(offsets, 50)} ms, min ${Math.min(...offsets)}, max ${Math.max(...offsets)} (${offsets.length} of ${pictures.length} flashes; broadcasters tolerate −40 to +60 ms, EBU R37)`,
    );
  } finally {
    await browser.stop();
    await screen.stop();
    ledger.killAll();
    if (!process.env.BENCH_KEEP) rmSync(folder, { recursive: true, force: true });
  }
}

await main();
