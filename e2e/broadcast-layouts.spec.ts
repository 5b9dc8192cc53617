import { streamingCalls } from '@meetcast/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { E2E_PORTS } from './support/ports';
import {
  latestSegmentEnd,
  attachFramePng,
  liveEdge,
  readFromSince,
  segmentFramesFrom,
  stopBroadcastSurely,
  type Frame,
} from './support/received-frames';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { RtmpReceiver } from './support/streaming';

/** Frames are read scaled to this size: one pixel here is 2×2 of the 1280×720 picture. */
const W = 640;
const H = 360;
const SIZE = { width: W, height: H };

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

  // Frames are read from the receiver's MPEG-TS pieces, each complete and decodable on its own: reads
  // from a long FLV still being written decoded as grey, and its last packet may be half written.
  test(
    'three people fill the grid, and a layout change reaches the receiver (time printed)',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const folder = mkdtempSync(join(tmpdir(), 'meetcast-layouts-'));
      const receiver = new RtmpReceiver(E2E_PORTS.customIngest, 'live/e2e-layout-key', `${folder}/custom`, {
        segments: true,
      }).start();
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
              // The receiver's current round (a step down starts a new one), its last complete second.
              gridFrame = segmentFramesFrom(receiver, latestSegmentEnd(receiver) - 1, SIZE).at(-1);
              return gridFrame ? isEmptyBackground(lumaOf(gridFrame, bottomRight)) : true;
            },
            { timeout: 60_000, intervals: [2000] },
          )
          .toBe(false);
        await attachFramePng(gridFrame!, SIZE, 'grid-3');

        // Spotlight: the two others in a centred strip below, so the bottom-left corner becomes background.
        const bottomLeft = { x: 30, y: 610, width: 250, height: 80 };
        expect(isEmptyBackground(lumaOf(gridFrame!, bottomLeft))).toBe(false);
        const round = receiver.file;
        const before = liveEdge(receiver);
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
              arrival = segmentFramesFrom(receiver, readFromSince(receiver, round, before), SIZE).find((frame) =>
                isEmptyBackground(lumaOf(frame, bottomLeft)),
              );
              return arrival !== undefined;
            },
            { timeout: 60_000, intervals: [1000] },
          )
          .toBe(true);
        // Measured only when no new push started in between (its clock starts again at 0).
        const changeMs = receiver.file === round ? Math.round((arrival!.pts - before) * 1000) : 0;
        // The budget is 500 ms (ADR 039), for the bench to measure: the stream's clock is not the wall's
        // on starved cores (the encoder's timestamps fell 8 s behind in 88 s at load 15), so the figure is
        // printed here and only a change lost fails.
        console.log(
          receiver.file === round
            ? `layout change (set call → new picture on the receiver): ${changeMs} ms (budget 500 ms)`
            : 'layout change seen after the composer pushed anew (a step down): its time is not measured',
        );
        await attachFramePng(arrival!, SIZE, 'spotlight-3');
      } finally {
        await stopBroadcastSurely(host, meeting.slug);
        await leave(...people);
        await receiver.stop();
      }
    },
  );
});
