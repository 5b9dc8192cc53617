import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dvrListSize, HLS_FILE, HLS_WINDOW, hlsRenditionArgs } from '../../src/streaming/viewers/hls-renditions.js';

/** Runs ffmpeg to its end; rejects with its last words otherwise. */
function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}: ${errors}`))));
  });
}

/** The kinds of stream in a file (a transport stream lists each in its program too: once each here). */
function ffprobeStreams(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const probe = spawn('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', path]);
    let output = '';
    probe.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    probe.on('close', (code) =>
      code === 0
        ? resolve([...new Set(output.split('\n').filter(Boolean))].sort())
        : reject(new Error(`ffprobe ${code}`)),
    );
  });
}

const listed = (playlist: string) => [...playlist.matchAll(/^([a-z]+-\d+\.ts)$/gm)].map((match) => match[1]!);
const listedSeconds = (playlist: string) =>
  [...playlist.matchAll(/^#EXTINF:([\d.]+),/gm)].reduce((sum, match) => sum + Number(match[1]), 0);

describe('the HLS playlists of a live broadcast (ADR 037)', () => {
  it('keeps at least 30 minutes to rewind, in a list of a few hundred segments', () => {
    expect(dvrListSize(HLS_WINDOW) * HLS_WINDOW.dvrSegmentSeconds).toBeGreaterThanOrEqual(30 * 60);
    expect(dvrListSize(HLS_WINDOW)).toBeLessThanOrEqual(600);
  });

  it('lists the window and no more, deletes what left it, and writes the sound alone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'meetcast-hls-window-'));
    const window = { dvrWindowSeconds: 12, dvrSegmentSeconds: 2 };
    // 40 s of the encode's shape (a keyframe every second, H.264 + AAC in MPEG-TS), written as fast as
    // ffmpeg can: the muxer cuts by timestamps, so the window is the same as in real time.
    const encoded = join(folder, 'encode.ts');
    await ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=10', '-f', 'lavfi', '-i', 'sine', '-t', '40'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mpegts', encoded],
    ]);
    await ffmpeg(['-i', encoded, ...hlsRenditionArgs(folder, window)]);

    const dvr = readFileSync(join(folder, 'dvr.m3u8'), 'utf8');
    expect(listed(dvr)).toHaveLength(dvrListSize(window));
    expect(listedSeconds(dvr)).toBeGreaterThanOrEqual(window.dvrWindowSeconds);
    expect(listedSeconds(dvr)).toBeLessThan(window.dvrWindowSeconds + 2 * window.dvrSegmentSeconds);
    expect(dvr).toMatch(new RegExp(`#EXT-X-TARGETDURATION:${window.dvrSegmentSeconds}\\b`));
    expect(dvr).not.toMatch(/#EXT-X-ENDLIST/);

    const index = readFileSync(join(folder, 'index.m3u8'), 'utf8');
    expect(listed(index)).toHaveLength(8);
    expect(listedSeconds(index)).toBeLessThan(10);

    // On disk: what the lists name, and at most one segment more each (ffmpeg's delete threshold).
    const files = readdirSync(folder);
    const dvrFiles = files.filter((name) => /^dvr-\d+\.ts$/.test(name));
    expect(dvrFiles.length).toBeLessThanOrEqual(dvrListSize(window) + 1);
    for (const name of listed(dvr)) expect(files).toContain(name);
    expect(files.filter((name) => /^segment-\d+\.ts$/.test(name)).length).toBeLessThanOrEqual(9);
    // Every file the viewers read is one the route serves; nothing else is.
    for (const name of files.filter((file) => file !== 'encode.ts')) expect(name).toMatch(HLS_FILE);
    expect('../encode.ts').not.toMatch(HLS_FILE);

    const audio = readFileSync(join(folder, 'audio.m3u8'), 'utf8');
    const audioSegment = listed(audio).at(-1)!;
    expect(await ffprobeStreams(join(folder, audioSegment))).toEqual(['audio']);
    expect(await ffprobeStreams(join(folder, listed(dvr).at(-1)!))).toEqual(['audio', 'video']);
  }, 60_000);
});
