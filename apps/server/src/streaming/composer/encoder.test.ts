import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUALITIES } from './capacity.js';
import { ProcessLedger, waitFor } from './child-processes.js';
import { Encoder } from './encoder.js';
import { FlvFanOut, type FlvTag } from './flv-fan-out.js';
import { claimDisplayNumber, releaseDisplayNumber, VirtualScreen } from './virtual-screen.js';

const folder = mkdtempSync(join(tmpdir(), 'meetcast-encoder-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The streams' codec and width; MPEG-TS lists them again under its program, hence the set. */
const probe = (file: string) => [
  ...new Set(
    execFileSync('ffprobe', ['-v', 'fatal', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', file], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean),
  ),
];

describe('the encoder (real Xvfb, PulseAudio and ffmpeg)', () => {
  it('writes FLV with its headers and MPEG-TS from one encode, and a restarted one continues the clock', async () => {
    const ledger = new ProcessLedger(folder, 'encoder');
    // Far above the numbers composers use (from 90), as virtual-screen.test.ts does.
    const display = claimDisplayNumber(270);
    const stage = join(folder, 'stage');
    mkdirSync(stage, { recursive: true, mode: 0o700 });
    const screen = new VirtualScreen(ledger, stage, display, { width: 1280, height: 720 });
    const flv = new FlvFanOut();
    const tags: FlvTag[] = [];
    const ts: Buffer[] = [];
    try {
      await screen.start();
      const startedAt = Date.now();
      // As the session does before each encoder: generation 1, then 2.
      flv.newStream();
      const first = new Encoder(ledger, screen, QUALITIES[0]!);
      first.on('data', (chunk) => ts.push(chunk));
      first.on('flv', (chunk) => flv.write(chunk));
      first.start();
      await new Promise<void>((resolve) => flv.whenReady(resolve));
      flv.add((tag) => tags.push(tag));
      const readyMs = Date.now() - startedAt;
      // Counted in keyframes (one a second), not in wall time: on a busy machine three seconds of wall time
      // can hold a single keyframe, and the second half of the stream then has no parameters to probe.
      const keyframesOfFirst = () => tags.filter((tag) => tag.generation === 1 && tag.isKeyframe).length;
      await waitFor(() => keyframesOfFirst() >= 4, 20_000, 'four keyframes encoded');
      await first.stop();

      // Cut mid-stream, the MPEG-TS still carries the picture's parameters (SPS/PPS before keyframes).
      const all = Buffer.concat(ts);
      const middle = all.subarray(Math.floor(all.length / 2 / 188) * 188);
      writeFileSync(join(folder, 'middle.ts'), middle);
      expect(probe(join(folder, 'middle.ts'))).toEqual(['h264,1280', 'aac']);

      flv.newStream();
      const second = new Encoder(ledger, screen, QUALITIES[0]!, (Date.now() - startedAt) / 1000);
      second.on('flv', (chunk) => flv.write(chunk));
      second.start();
      await waitFor(() => tags.some((tag) => tag.generation === 2 && tag.isKeyframe), 15_000, 'the second keyframe');
      await second.stop();

      // Headers and a keyframe quickly: nothing probes the stream on the way to a destination.
      expect(readyMs).toBeLessThan(8000);
      const lastOfFirst = Math.max(...tags.filter((tag) => tag.generation === 1).map((tag) => tag.timestamp));
      const firstOfSecond = tags.find((tag) => tag.generation === 2 && tag.isKeyframe)!;
      expect(firstOfSecond.timestamp).toBeGreaterThan(lastOfFirst);
    } finally {
      await screen.stop();
      ledger.killAll();
      releaseDisplayNumber(display);
    }
  }, 60_000);
});
