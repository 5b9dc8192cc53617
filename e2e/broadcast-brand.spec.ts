import { peopleCalls, streamingCalls } from '@meetcast/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { APP_URL, E2E_PORTS } from './support/ports';
import {
  countPixels,
  framesFrom,
  goLiveToReceiver,
  latestPts,
  savePng,
  stopBroadcastSurely,
  type Frame,
} from './support/received-frames';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { RtmpReceiver } from './support/streaming';

/** Frames are read at half the broadcast's 1280×720. */
const SIZE = { width: 640, height: 360 };
const ACCENT = '#00c853';
/** Where the logo stands at half size: the top end corner (ADR 046), with a margin around it. */
const LOGO_CORNER = { x: 480, y: 0, width: 160, height: 90 };
/** The ticker's lower rows at half size, below the accent line at its top. */
const TICKER_TEXT = { x: 0, y: 342, width: 640, height: 16 };
const ABOVE_BAND = { x: 0, y: 0, width: 640, height: 330 };

const isMagenta = (red: number, green: number, blue: number) => red > 170 && blue > 170 && green < 90;
/** Strongly coloured: not white, grey or black (a missing emoji font draws white boxes). */
const isColoured = (red: number, green: number, blue: number) =>
  Math.max(red, green, blue) > 120 && Math.max(red, green, blue) - Math.min(red, green, blue) > 90;
const isAccent = (red: number, green: number, blue: number) => red < 70 && green > 150 && blue > 30 && blue < 140;

// ADR 046: what a channel's brand kit puts on what the platforms receive.
test.describe('broadcast brand kit', () => {
  test.describe.configure({ timeout: 600_000 });

  test(
    'an uploaded logo, the accent-coloured name tags and colour emoji in the ticker reach the receiver',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const folder = mkdtempSync(join(tmpdir(), 'meetcast-brand-'));
      const receiver = new RtmpReceiver(E2E_PORTS.customIngest, 'live/e2e-brand-key', `${folder}/custom`).start();
      const host = await signUp({ username: 'Bea Brand' });
      const channel = await apiPost(peopleCalls.createChannel, {
        token: host.token,
        name: 'Bea Live',
        slug: 'bea-live',
      });
      expect(channel.httpStatus).toBe(200);
      const logo = await sharp({ create: { width: 400, height: 200, channels: 4, background: '#ff00ff' } })
        .png()
        .toBuffer();
      // A file, the way the edit page's upload button sends it.
      const form = new FormData();
      form.append('token', host.token);
      form.append('kind', 'logo');
      form.append('file', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
      const uploaded = await fetch(`${APP_URL}/api/${peopleCalls.uploadBrandImage.name}`, {
        method: 'POST',
        body: form,
      });
      expect(uploaded.status).toBe(200);
      const styled = await apiPost(peopleCalls.updateBrandKit, {
        token: host.token,
        accent_color: ACCENT,
        name_tag_style: 'bold',
      });
      expect(styled.httpStatus).toBe(200);

      const meeting = await createMeeting(host);
      const people = [await joinRoom(browser, meeting.slug, { account: host })];
      try {
        await Promise.all(people.map(inCall));
        const started = await goLiveToReceiver(host, meeting.slug, 'e2e-brand-key');
        expect(started.httpStatus).toBe(200);
        const ticker = await apiPost(streamingCalls.setBroadcastOverlay, {
          token: host.token,
          meetId: meeting.slug,
          ticker: `Live now ${'🎉🌈🍕🚀🍓🌻 '.repeat(12)}`,
        });
        expect(ticker.httpStatus).toBe(200);
        await expect.poll(() => receiver.bytes(), { timeout: 60_000 }).toBeGreaterThan(300_000);

        // The frames of the last 3 s but the newest (its last packet may be half written), from the
        // receiver's current file (a step down to 540p on a busy machine starts a new one).
        const measure = (frame: Frame) => ({
          frame,
          logo: countPixels(frame, SIZE.width, LOGO_CORNER, isMagenta),
          emoji: countPixels(frame, SIZE.width, TICKER_TEXT, isColoured),
          accent: countPixels(frame, SIZE.width, ABOVE_BAND, isAccent),
        });
        const isBranded = ({ logo, emoji, accent }: ReturnType<typeof measure>) =>
          logo > 1500 && emoji > 150 && accent > 150;
        let seen: ReturnType<typeof measure> | undefined;
        await expect
          .poll(
            () => {
              const file = receiver.file;
              const frames = framesFrom(file, latestPts(file) - 3, SIZE)
                .slice(0, -10)
                .map(measure);
              seen = frames.find(isBranded) ?? frames.at(-1);
              if (!seen) return 'no frame yet';
              return isBranded(seen) ? 'branded' : `logo ${seen.logo}, emoji ${seen.emoji}, accent ${seen.accent}`;
            },
            { timeout: 60_000, intervals: [2000] },
          )
          .toBe('branded')
          .finally(() => seen && savePng(receiver.file, seen.frame.pts, 'branded'));
        console.log(
          `received frame: logo ${seen!.logo} magenta px, ticker ${seen!.emoji} coloured px, name tag ${seen!.accent} accent px (half size)`,
        );
      } finally {
        await stopBroadcastSurely(host, meeting.slug);
        await leave(...people);
        await receiver.stop();
      }
    },
  );
});
