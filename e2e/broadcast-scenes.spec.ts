import { streamingCalls } from '@meetcast/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { APP_URL, E2E_PORTS } from './support/ports';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import {
  latestSegmentEnd,
  attachFramePng,
  liveEdge,
  readFromSince,
  segmentFramesFrom,
  stopBroadcastSurely,
  type Frame,
} from './support/received-frames';
import { RtmpReceiver } from './support/streaming';
import { localeText, meanColour, openStudioPreview, previewFrame } from './support/studio-preview';

/** Frames are read scaled to this size. */
const W = 320;
const H = 180;
const SIZE = { width: W, height: H };
/** The scene card's plain background (Tailwind's slate-900), as RGB. */
const CARD = [15, 23, 42] as const;

/** The share of a frame's pixels in the card's colour (within the encoder's drift): ~0.9 for the card. */
function cardShare(rgb: Buffer) {
  let count = 0;
  for (let at = 0; at + 2 < rgb.length; at += 3) {
    const near = Math.abs(rgb[at]! - CARD[0]) + Math.abs(rgb[at + 1]! - CARD[1]) + Math.abs(rgb[at + 2]! - CARD[2]);
    if (near < 24) count += 1;
  }
  return count / (rgb.length / 3);
}

// ADR 042: the stream starts on the host's "Starting soon" card, not on tiles, and cuts to the people.
test.describe('broadcast scenes', () => {
  // Two browsers, the composer and frame decoding on two shared cores.
  test.describe.configure({ timeout: 600_000 });

  test(
    'goes live on "Starting soon" with a message, then cuts to the people',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const folder = mkdtempSync(join(tmpdir(), 'meetcast-scenes-'));
      const receiver = new RtmpReceiver(E2E_PORTS.customIngest, 'live/e2e-scene-key', `${folder}/custom`, {
        segments: true,
      }).start();
      const host = await signUp({ username: 'Sam Scene' });
      const meeting = await createMeeting(host);
      const people = [
        await joinRoom(browser, meeting.slug, { account: host }),
        await joinRoom(browser, meeting.slug, { name: 'Gus Guest' }),
      ];
      try {
        await Promise.all(people.map(inCall));
        const added = await apiPost(streamingCalls.addRtmpDestination, {
          token: host.token,
          name: 'Scene receiver',
          url: `rtmp://127.0.0.1:${E2E_PORTS.customIngest}/live`,
          stream_key: 'e2e-scene-key',
        });
        const connectionId = (added.body.data as { data: { id: number } }).data.id;
        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: meeting.slug,
          destinations: JSON.stringify([{ connection_id: connectionId }]),
          scene: 'starting_soon',
          scene_message: 'The keynote begins shortly',
          scene_countdown_to: Math.floor(Date.now() / 1000) + 300,
        });
        expect(started.httpStatus).toBe(200);
        await expect.poll(() => receiver.bytes(), { timeout: 60_000 }).toBeGreaterThan(300_000);

        // The cameras reach the composer within seconds; the card stays the picture all along.
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        // Read from the receiver's complete MPEG-TS pieces of its current round (a step down starts a
        // new one): a long FLV still being written decoded as grey when sought into.
        const onCard = segmentFramesFrom(receiver, latestSegmentEnd(receiver) - 8, SIZE);
        expect(onCard.length).toBeGreaterThan(10);
        const shares = onCard.map((frame) => cardShare(frame.rgb));
        console.log(
          `card colour share on "Starting soon": min ${Math.min(...shares).toFixed(2)} of ${shares.length} frames`,
        );
        expect(Math.min(...shares)).toBeGreaterThan(0.7);
        await attachFramePng(onCard.at(-1)!, SIZE, 'starting-soon');

        // ADR 047: the studio's preview plays the encoded output itself (the viewers' mountpoint): the
        // host sees the card as the receiver got it.
        const studio = people[0]!.page;
        const preview = await openStudioPreview(studio);
        const received = onCard.at(-1)!.rgb;
        const previewed = await previewFrame(preview, W, H);
        const [receivedMean, previewMean] = [meanColour(received), meanColour(previewed)];
        const colourGap = Math.max(...receivedMean.map((value, channel) => Math.abs(value - previewMean[channel]!)));
        console.log(
          `preview vs receiver on "Starting soon": card share ${cardShare(previewed).toFixed(2)} vs ${cardShare(received).toFixed(2)}, ` +
            `mean RGB ${previewMean.map(Math.round).join('/')} vs ${receivedMean.map(Math.round).join('/')} (gap ${colourGap.toFixed(1)})`,
        );
        expect(cardShare(previewed)).toBeGreaterThan(0.7);
        expect(Math.abs(cardShare(previewed) - cardShare(received))).toBeLessThan(0.1);
        expect(colourGap).toBeLessThan(8);
        // Muted at first (the host hears the room already); the button gives the sound.
        expect(await preview.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
        await studio.getByRole('button', { name: 'Unmute preview' }).click();
        expect(await preview.evaluate((element: HTMLVideoElement) => element.muted)).toBe(false);
        const darkShot = test.info().outputPath('studio-preview.png');
        await studio.screenshot({ path: darkShot });
        await test.info().attach('studio-preview', { path: darkShot, contentType: 'image/png' });

        const round = receiver.file;
        const before = liveEdge(receiver);
        const cut = await apiPost(streamingCalls.setBroadcastOverlay, {
          token: host.token,
          meetId: meeting.slug,
          scene: 'live',
          scene_message: '',
          scene_countdown_to: 0,
        });
        expect(cut.httpStatus).toBe(200);
        let peopleFrame: Frame | undefined;
        await expect
          .poll(
            () => {
              peopleFrame = segmentFramesFrom(receiver, readFromSince(receiver, round, before, 30), SIZE).find(
                (frame) => cardShare(frame.rgb) < 0.3,
              );
              return peopleFrame !== undefined;
            },
            { timeout: 60_000, intervals: [1000] },
          )
          .toBe(true);
        console.log(
          `scene cut (set call → people on the receiver): ${Math.round((peopleFrame!.pts - before) * 1000)} ms`,
        );
        await attachFramePng(peopleFrame!, SIZE, 'live');
        // The preview cuts to the people too.
        await expect
          .poll(async () => cardShare(await previewFrame(preview, W, H)), { timeout: 10_000 })
          .toBeLessThan(0.3);

        // The studio in Arabic (right to left) and the light theme, the host's second window: its
        // preview plays as well.
        const arabic = await people[0]!.context.newPage();
        await arabic.addInitScript(() => window.localStorage.setItem('theme', 'light'));
        await arabic.goto(`${APP_URL}/room/${meeting.slug}?lng=ar`);
        await arabic.getByRole('button', { name: localeText('ar', 'room', 'prejoin.join') }).click();
        await expect(arabic.locator('html')).toHaveAttribute('dir', 'rtl');
        await expect(arabic.locator('html')).not.toHaveClass(/dark/);
        await openStudioPreview(arabic, 'ar');
        const arabicShot = test.info().outputPath('studio-preview-ar.png');
        await arabic.screenshot({ path: arabicShot });
        await test.info().attach('studio-preview-ar', { path: arabicShot, contentType: 'image/png' });
      } finally {
        await stopBroadcastSurely(host, meeting.slug);
        await leave(...people);
        await receiver.stop();
      }
    },
  );
});
