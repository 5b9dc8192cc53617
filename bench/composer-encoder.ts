/**
 * The composer's encoder alone, on a quiet stage of its own: how long a picture takes from the
 * virtual screen to a decoded frame of the encode, and whether sound and picture stay together.
 *
 * It starts the product's own stage (VirtualScreen, LayoutBrowser, Encoder) and opens a page that,
 * on the composer bench's flash moments (every 2 s on the whole second, IS_SYNC_MOMENT), flashes
 * white and beeps, both switched by the same frame. A decoder reads the encode as it comes and
 * notes when each flash arrives; afterwards the encode is read again for the flash's and the
 * beep's timestamps. Part of glass-to-glass (bench/composer.ts), without the participants' browsers.
 *
 *   node --import tsx bench/composer-encoder.ts   (BENCH_SECONDS, default 20; BENCH_KEEP=1 keeps the encode)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimDisplayNumber, Encoder, LayoutBrowser, QUALITIES, VirtualScreen } from '@meetcast/server/composer-parts';
import { ProcessLedger } from '@meetcast/server/tooling';
import { describeSync, soundMinusPicture } from './composer/av-sync';
import { IS_SYNC_MOMENT, SYNC_PERIOD_S } from './composer/timestamp-code';
import { percentile } from './percentile';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);

const FLASH_AND_BEEP_PAGE = `<!doctype html><body style="margin:0;background:#000">
<div id="flash" style="position:fixed;inset:0;background:#000"></div><script>
const flash = document.getElementById('flash');
const audio = new AudioContext({ latencyHint: 'interactive', sampleRate: 48000 });
// The beep is switched on by the same frame that paints the flash (a tone scheduled ahead from the
// audio clock's timestamps came out up to a second off in headless Chromium: bench/composer).
const gain = audio.createGain();
gain.gain.value = 0;
const tone = audio.createOscillator();
tone.frequency.value = 1000;
tone.connect(gain).connect(audio.destination);
tone.start();
const isSyncMoment = ${IS_SYNC_MOMENT};
function paint() {
  const now = Date.now();
  const isOn = isSyncMoment(now);
  flash.style.background = isOn ? '#fff' : '#000';
  gain.gain.setValueAtTime(isOn ? 1 : 0, 0);
  if (audio.state !== 'running') void audio.resume();
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
    const sync = soundMinusPicture(file, SYNC_PERIOD_S);
    const arrived = flashes.delays.slice(1); // the first may be a flash the encoder caught half-way
    console.log(
      `encoder (${quality.name}, with sound), ${SECONDS} s on a quiet stage; load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `  screen flash → decoded from the encode as it came: p50 ${percentile(arrived, 50)} ms, p95 ${percentile(arrived, 95)} ms (${arrived.length} flashes)`,
    );
    console.log(`  in the encode: ${describeSync(sync)}`);
  } finally {
    await browser.stop();
    await screen.stop();
    ledger.killAll();
    if (!process.env.BENCH_KEEP) rmSync(folder, { recursive: true, force: true });
  }
}

await main();
