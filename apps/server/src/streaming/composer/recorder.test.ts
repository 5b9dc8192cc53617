import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ProcessLedger } from './child-processes.js';
import { MediaFanOut } from './media-fan-out.js';
import { Recorder } from './recorder.js';

/** `seconds` of a live encode like the composer's (H.264 with a keyframe every second, AAC, MPEG-TS), in real time. */
function liveEncode(fanOut: MediaFanOut, seconds: number) {
  const encoder = spawn('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=30'],
    ...['-re', '-f', 'lavfi', '-i', 'sine=sample_rate=48000', '-t', String(seconds)],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-f', 'mpegts', '-muxdelay', '0', '-flush_packets', '1', 'pipe:1'],
  ]);
  encoder.stdout.on('data', (chunk: Buffer) => fanOut.write(chunk));
  return new Promise<void>((resolve) => encoder.once('exit', () => resolve()));
}

const duration = (file: string) =>
  Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file])
      .toString()
      .trim(),
  );

describe('the recorder', () => {
  it('records on into a new part when its ffmpeg dies mid-broadcast, and joins the parts at the end', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'meetcast-recorder-'));
    const file = join(folder, '7-0123456789abcdef0123456789abcdef.mp4');
    const fanOut = new MediaFanOut();
    const logged: string[] = [];
    const recorder = new Recorder(new ProcessLedger(join(folder, 'ledger'), 'test'), fanOut, file, (line) =>
      logged.push(line),
    );
    recorder.start();
    const encoding = liveEncode(fanOut, 12);
    await sleep(5000);
    // As if it had crashed: its part so far stays, and a new ffmpeg records the rest.
    execFileSync('pkill', ['-KILL', '-f', file.replace(/\.mp4$/, '.part.mp4')]);
    await encoding;
    const seconds = await recorder.finish();

    expect(logged.join('\n')).toContain('recorder exited');
    // Without the restart only the first ~5 s would be there; the second part misses ~1 s (the restart).
    expect(seconds).toBeGreaterThan(8.5);
    expect(duration(file)).toBeCloseTo(seconds!, 0);
    const decoding = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
    expect(decoding.trim()).toBe('');
    expect(readdirSync(folder).filter((name) => name.includes('.part'))).toEqual([]);
  }, 40_000);

  it('answers nothing when no byte was recorded', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'meetcast-recorder-'));
    const file = join(folder, '8-0123456789abcdef0123456789abcdef.mp4');
    const recorder = new Recorder(new ProcessLedger(join(folder, 'ledger'), 'test'), new MediaFanOut(), file, () => {});
    recorder.start();
    expect(await recorder.finish()).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  }, 20_000);
});
