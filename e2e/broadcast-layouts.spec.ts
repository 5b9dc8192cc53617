import { streamingCalls } from '@meetcast/contracts';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { E2E_PORTS } from './support/ports';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { RtmpReceiver } from './support/streaming';

/** Frames are read scaled to this size: one pixel here is 2×2 of the 1280×720 picture. */
const W = 640;
const H = 360;

interface Frame {
  pts: number;
  rgb: Buffer;
}

/** The last video packet's time (s) a receiver has written: the picture arriving now. */
function latestPts(file: string): number {
  const text = execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file],
  ]).toString();
  return Math.max(...text.split('\n').map(Number.parseFloat).filter(Number.isFinite));
}

/** Every frame the receiver got from `from` seconds on, decoded as a player would, with its time. */
function framesFrom(file: string, from: number): Frame[] {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-v', 'info', '-ss', String(Math.max(0, from - 1)), '-i', file, '-copyts'],
      ...['-vf', `select=gte(t\\,${from}),scale=${W}:${H},showinfo`, '-fps_mode', 'passthrough'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { maxBuffer: 1024 * 1024 * 1024 },
  );
  const times = [...result.stderr.toString().matchAll(/pts_time:\s*([\d.]+)/g)].map((match) => Number(match[1]));
  const size = W * H * 3;
  return times.map((pts, index) => ({ pts, rgb: result.stdout.subarray(index * size, (index + 1) * size) }));
}

/** One frame written to a PNG for a person (and the test's report) to look at. */
function savePng(file: string, at: number, path: string) {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-ss', String(at), '-i', file, '-frames:v', '1', path]);
}

/** Mean and spread of the luminance in a box of the scaled frame (x, y, width, height in 1280×720 pixels). */
function lumaOf(frame: Frame, box: { x: number; y: number; width: number; height: number }) {
  const values: number[] = [];
  for (let y = Math.floor(box.y / 2); y < Math.floor((box.y + box.height) / 2); y += 1)
    for (let x = Math.floor(box.x / 2); x < Math.floor((box.x + box.width) / 2); x += 1) {
      const at = (y * W + x) * 3;
      values.push(0.2126 * frame.rgb[at]! + 0.7152 * frame.rgb[at + 1]! + 0.0722 * frame.rgb[at + 2]!);
    }
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const spread = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
  return { mean, spread };
}

/** The empty background of the broadcast page (slate-950): dark and even. */
const isEmptyBackground = (luma: { mean: number; spread: number }) => luma.mean < 30 && luma.spread < 8;

// ADR 039: the host's layouts on the real broadcast, as an RTMP receiver gets it (real composer).
test.describe('broadcast layouts', () => {
  // Three browsers, the composer and frame decoding on two shared cores: the setup alone took 5 minutes
  // under a load of 30 (2026-12-04).
  test.describe.configure({ timeout: 720_000 });

  // Parked: the composer page applies the change (the receiver's file, decoded from its start, shows
  // the grid, then the spotlight), but this spec's reads of frames from a long, growing FLV decode as
  // grey, and a step down to 540p opens a new, still empty file under it. It needs a receiver output
  // that can be read from any point (MPEG-TS segments) before it runs again.
  test.fixme(
    'three people fill the grid, and a layout change reaches the receiver (time printed)',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const folder = mkdtempSync(join(tmpdir(), 'meetcast-layouts-'));
      const receiver = new RtmpReceiver(E2E_PORTS.customIngest, 'live/e2e-layout-key', `${folder}/custom`).start();
      const host = await signUp({ username: 'Lena Layout' });
      const meeting = await createMeeting(host);
      const people = [
        await joinRoom(browser, meeting.slug, { account: host }),
        await joinRoom(browser, meeting.slug, { name: 'Gus Guest' }),
        await joinRoom(browser, meeting.slug, { name: 'Ada Guest' }),
      ];
      try {
        await Promise.all(people.map(inCall));
        const added = await apiPost(streamingCalls.addRtmpDestination, {
          token: host.token,
          name: 'Layout receiver',
          url: `rtmp://127.0.0.1:${E2E_PORTS.customIngest}/live`,
          stream_key: 'e2e-layout-key',
        });
        const connectionId = (added.body.data as { data: { id: number } }).data.id;
        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: meeting.slug,
          destinations: JSON.stringify([{ connection_id: connectionId }]),
        });
        expect(started.httpStatus).toBe(200);
        await expect.poll(() => receiver.bytes(), { timeout: 60_000 }).toBeGreaterThan(300_000);

        // Three people, grid: two on top and one as wide as the frame below; the bottom-right quarter
        // (empty black in the old meeting grid) is a picture. Cameras take a few seconds to arrive.
        const bottomRight = { x: 700, y: 420, width: 520, height: 240 };
        let gridFrame: Frame | undefined;
        await expect
          .poll(
            () => {
              // The receiver's current file (a step down starts a new one), not its newest frames (the
              // last packet may be half written).
              const file = receiver.file;
              const frames = framesFrom(file, latestPts(file) - 3).slice(0, -10);
              gridFrame = frames.at(-1);
              return gridFrame ? isEmptyBackground(lumaOf(gridFrame, bottomRight)) : true;
            },
            { timeout: 60_000, intervals: [2000] },
          )
          .toBe(false);
        savePng(receiver.file, gridFrame!.pts, test.info().outputPath('grid-3.png'));
        await test.info().attach('grid-3', { path: test.info().outputPath('grid-3.png'), contentType: 'image/png' });

        // Spotlight: the two others in a centred strip below, so the bottom-left corner becomes background.
        const bottomLeft = { x: 30, y: 610, width: 250, height: 80 };
        expect(isEmptyBackground(lumaOf(gridFrame!, bottomLeft))).toBe(false);
        const file = receiver.file;
        const before = latestPts(file);
        const changed = await apiPost(streamingCalls.setBroadcastOverlay, {
          token: host.token,
          meetId: meeting.slug,
          layout: 'spotlight',
        });
        expect(changed.httpStatus).toBe(200);
        let arrival: Frame | undefined;
        await expect
          .poll(
            () => {
              // From the last 3 s only: a read from far back in a long, growing file decoded as grey.
              const from = Math.max(before, latestPts(file) - 3);
              arrival = framesFrom(file, from)
                .slice(0, -10)
                .find((frame) => isEmptyBackground(lumaOf(frame, bottomLeft)));
              return arrival !== undefined;
            },
            { timeout: 30_000, intervals: [1000] },
          )
          .toBe(true);
        const changeMs = Math.round((arrival!.pts - before) * 1000);
        // The budget is 500 ms (ADR 039); on starved shared cores the page's refetch, the render and the
        // encode lag, so the figure is printed against it and only a change lost or stuck fails here.
        console.log(`layout change (set call → new picture on the receiver): ${changeMs} ms (budget 500 ms)`);
        savePng(file, arrival!.pts + 0.5, test.info().outputPath('spotlight-3.png'));
        await test.info().attach('spotlight-3', {
          path: test.info().outputPath('spotlight-3.png'),
          contentType: 'image/png',
        });
        expect(changeMs).toBeLessThanOrEqual(10_000);
      } finally {
        // The broadcast must end whatever failed above: a composer left running refuses the next spec's
        // go-live (503). A stop whose connection was dropped (seen once: "other side closed") is sent again.
        for (let attempt = 1; ; attempt += 1) {
          const stopped = await apiPost(streamingCalls.stopBroadcast, {
            token: host.token,
            meetId: meeting.slug,
          }).catch((error: unknown) => error);
          if (!(stopped instanceof Error) || attempt === 3) break;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        await leave(...people);
        await receiver.stop();
      }
    },
  );
});
