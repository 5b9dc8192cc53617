import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MediaFanOut } from './media-fan-out.js';

/** Five seconds of H.264 (a keyframe every second, as the composer encodes) + AAC in MPEG-TS, from the real ffmpeg. */
function sampleStream(): Buffer {
  return execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=30'],
    ...['-f', 'lavfi', '-i', 'sine=sample_rate=48000', '-t', '5', '-c:v', 'libx264', '-preset', 'veryfast'],
    ...['-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mpegts', '-muxdelay', '0'],
    'pipe:1',
  ]);
}

function probe(stream: Buffer) {
  return execFileSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', '-i', 'pipe:0'],
    { input: stream },
  )
    .toString()
    .trim()
    .split('\n')
    .sort();
}

function firstVideoFrameIsKey(stream: Buffer) {
  const answer = execFileSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'v',
      '-read_intervals',
      '%+#1',
      '-show_entries',
      'frame=key_frame',
      '-i',
      'pipe:0',
    ],
    { input: stream },
  ).toString();
  return /key_frame=1/.test(answer);
}

/** What ffmpeg complains about when it decodes the stream from its first byte (nothing, when it starts well). */
function decodingErrors(stream: Buffer) {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-f', 'mpegts', '-i', 'pipe:0', '-f', 'null', '-'], {
    input: stream,
  });
  return result.stderr.toString().trim();
}

describe('the encode fan-out', () => {
  it('hands a late reader a keyframe start it can decode at once, whatever the chunk sizes', () => {
    const stream = sampleStream();
    const fanOut = new MediaFanOut();
    // Added before anything was encoded: it starts with the first keyframe.
    const first: Buffer[] = [];
    fanOut.add((chunk) => first.push(chunk));
    fanOut.write(stream.subarray(0, 3000));
    const early: Buffer[] = [];
    fanOut.add((chunk) => early.push(chunk));
    // Odd chunk sizes, as a pipe delivers them.
    const half = Math.floor(stream.length / 2) + 77;
    for (let at = 3000; at < half; at += 1000 + 13) fanOut.write(stream.subarray(at, Math.min(at + 1013, half)));
    const late: Buffer[] = [];
    fanOut.add((chunk) => late.push(chunk));
    for (let at = half; at < stream.length; at += 4096) fanOut.write(stream.subarray(at, at + 4096));

    const lateStream = Buffer.concat(late);
    expect(lateStream[0]).toBe(0x47);
    expect(lateStream.length % 188).toBe(0);
    // The late reader starts at a keyframe with the stream's parameters: it probes both streams.
    expect(probe(lateStream)).toEqual(expect.arrayContaining(['aac', 'h264,320']));
    expect(firstVideoFrameIsKey(lateStream)).toBe(true);
    expect(decodingErrors(lateStream)).toBe('');
    expect(Buffer.concat(early).length).toBeGreaterThan(lateStream.length);
    expect(firstVideoFrameIsKey(Buffer.concat(first))).toBe(true);
    expect(decodingErrors(Buffer.concat(first))).toBe('');
  });
});
