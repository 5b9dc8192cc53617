import { streamingCalls } from '@meetcast/contracts';
import { execFileSync, spawnSync } from 'node:child_process';
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
