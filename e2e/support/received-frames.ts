import { streamingCalls } from '@meetcast/contracts';
import type { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from '../fixtures';
import { apiPost, type Account } from './api';
import { E2E_PORTS } from './ports';

export interface Frame {
  pts: number;
  /** RGB, three bytes a pixel, at the size it was read. */
  rgb: Buffer;
}
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The last video packet's time (s) a receiver has written: the picture arriving now. */
export function latestPts(file: string): number {
  const text = execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file],
  ]).toString();
  return Math.max(...text.split('\n').map(Number.parseFloat).filter(Number.isFinite));
}

/** The frames a receiver got from `from` seconds on, as RGB scaled to width × height, with their times. */
export function framesFrom(file: string, from: number, size: { width: number; height: number }): Frame[] {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-v', 'info', '-ss', String(Math.max(0, from - 1)), '-i', file, '-copyts'],
      ...['-vf', `select=gte(t\\,${from}),scale=${size.width}:${size.height},showinfo`, '-fps_mode', 'passthrough'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { maxBuffer: 512 * 1024 * 1024 },
  );
  const times = [...result.stderr.toString().matchAll(/pts_time:\s*([\d.]+)/g)].map((match) => Number(match[1]));
  const bytes = size.width * size.height * 3;
  return times.map((pts, index) => ({ pts, rgb: result.stdout.subarray(index * bytes, (index + 1) * bytes) }));
}

/**
 * The frames of a segmenting receiver's current round (RtmpReceiver with `segments`) from `from`
 * seconds on, read from its complete pieces only: each decodes on its own, however long the stream.
 */
export function segmentFramesFrom(
  receiver: RtmpReceiver,
  from: number,
  size: { width: number; height: number },
): Frame[] {
  const pieces = receiver.segments().filter((piece) => piece.end > from);
  if (pieces.length === 0) return [];
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-v', 'info', '-copyts', '-i', `concat:${pieces.map((piece) => piece.path).join('|')}`],
      ...['-vf', `select=gte(t\\,${from}),scale=${size.width}:${size.height},showinfo`, '-fps_mode', 'passthrough'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { maxBuffer: 512 * 1024 * 1024 },
  );
  const times = [...result.stderr.toString().matchAll(/pts_time:\s*([\d.]+)/g)].map((match) => Number(match[1]));
  const bytes = size.width * size.height * 3;
  return times.map((pts, index) => ({ pts, rgb: result.stdout.subarray(index * bytes, (index + 1) * bytes) }));
}

/** The end (s) of a segmenting receiver's newest complete piece: the picture that has arrived by now. */
export function latestSegmentEnd(receiver: RtmpReceiver): number {
  return receiver.segments().at(-1)?.end ?? 0;
}

/**
 * The newest picture's time (s) a segmenting receiver has written, from the piece still being
 * written: the live edge, up to a second ahead of the newest complete piece.
 */
export function liveEdge(receiver: RtmpReceiver): number {
  const written = readdirSync(receiver.segmentFolder)
    .filter((name) => name.endsWith('.ts'))
    .sort();
  const newest = written.at(-1);
  let edge = latestSegmentEnd(receiver);
  try {
    if (newest) edge = Math.max(edge, latestPts(`${receiver.segmentFolder}/${newest}`));
  } catch {
    // A piece just opened holds no packet yet: the newest complete one is the edge.
  }
  return edge;
}

/** A frame already read (RGB at `size`), as a PNG in the test's report. */
export function attachFramePng(frame: Frame, size: { width: number; height: number }, name: string) {
  const path = test.info().outputPath(`${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  execFileSync(
    'ffmpeg',
    [
      ...['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${size.width}x${size.height}`],
      ...['-i', 'pipe:0', '-frames:v', '1', path],
    ],
    { input: frame.rgb },
  );
  return test.info().attach(name, { path, contentType: 'image/png' });
}

/**
 * Where to read a segmenting receiver's pictures from to see a change made when its live edge was
 * `before` in the round `round` (its file then): a publisher that came again since (a step down
 * pushes anew) starts a new round whose clock starts at 0, so its last seconds are read instead.
 */
export function readFromSince(receiver: RtmpReceiver, round: string, before: number, lastSeconds = 3) {
  const recent = Math.max(0, latestSegmentEnd(receiver) - lastSeconds);
  return receiver.file === round ? Math.max(before, recent) : recent;
}

/** How many pixels of a box (in the frame's own size) pass a test of their colour. */
export function countPixels(
  frame: Frame,
  frameWidth: number,
  box: Box,
  isCounted: (red: number, green: number, blue: number) => boolean,
) {
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y += 1)
    for (let x = box.x; x < box.x + box.width; x += 1) {
      const at = (y * frameWidth + x) * 3;
      if (isCounted(frame.rgb[at]!, frame.rgb[at + 1]!, frame.rgb[at + 2]!)) count += 1;
    }
  return count;
}

/** The received picture at a time, attached to the test's report as a PNG. */
export function savePng(file: string, at: number, name: string) {
  const path = test.info().outputPath(`${name}.png`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-ss', String(at), '-i', file, '-frames:v', '1', path]);
  return test.info().attach(name, { path, contentType: 'image/png' });
}

/** Adds a local RTMP receiver as the host's destination and goes live to it; the call's answer. */
export async function goLiveToReceiver(
  host: Account,
  meetId: string,
  streamKey: string,
  extra: Record<string, unknown> = {},
) {
  const added = await apiPost(streamingCalls.addRtmpDestination, {
    token: host.token,
    name: `Receiver ${streamKey}`,
    url: `rtmp://127.0.0.1:${E2E_PORTS.customIngest}/live`,
    stream_key: streamKey,
  });
  const connectionId = (added.body.data as { data: { id: number } }).data.id;
  return apiPost(streamingCalls.startBroadcast, {
    token: host.token,
    meetId,
    destinations: JSON.stringify([{ connection_id: connectionId }]),
    ...extra,
  });
}

/**
 * Ends the broadcast whatever failed before: a composer left running refuses the next spec's go-live
 * (503). A stop whose connection dropped is sent again.
 */
export async function stopBroadcastSurely(host: Account, meetId: string) {
  for (let attempt = 1; ; attempt += 1) {
    const stopped = await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId }).catch(
      (error: unknown) => error,
    );
    if (!(stopped instanceof Error) || attempt === 3) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
