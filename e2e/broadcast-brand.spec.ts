import { peopleCalls, streamingCalls } from '@meetcast/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { APP_URL, E2E_PORTS } from './support/ports';
import {
  attachFramePng,
  countPixels,
  framesFrom,
  goLiveToReceiver,
  latestPts,
  latestSegmentEnd,
  liveEdge,
  readFromSince,
  savePng,
  segmentFramesFrom,
  stopBroadcastSurely,
  type Frame,
} from './support/received-frames';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { RtmpReceiver } from './support/streaming';
import { localeText } from './support/studio-preview';

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
/** An overlay of the library: an opaque band across the top sixth of the frame, the rest transparent. */
const OVERLAY_BAND = { x: 0, y: 4, width: 640, height: 48 };
const isRed = (red: number, green: number, blue: number) => red > 170 && green < 80 && blue < 80;
const isBlue = (red: number, green: number, blue: number) => blue > 170 && red < 80 && green < 110;
const bandOverlay = (colour: string) =>
  sharp({ create: { width: 1920, height: 1080, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: { create: { width: 1920, height: 180, channels: 4, background: colour } },
        top: 0,
        left: 0,
      },
    ])
    .png()
    .toBuffer();

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

  // Issue 45: a library of overlay images in the kit, switched live from the studio's Live panel.
  test(
    'overlay A from the library reaches the receiver, then overlay B after a switch in the Live panel',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const folder = mkdtempSync(join(tmpdir(), 'meetcast-overlays-'));
      // Read from complete MPEG-TS pieces: each decodes on its own, however long the stream.
      const receiver = new RtmpReceiver(E2E_PORTS.customIngest, 'live/e2e-overlay-key', `${folder}/custom`, {
        segments: true,
      }).start();
      const host = await signUp({ username: 'Ola Overlay' });
      const channel = await apiPost(peopleCalls.createChannel, {
        token: host.token,
        name: 'Ola Live',
        slug: 'ola-live',
      });
      expect(channel.httpStatus).toBe(200);
      const library: { id: number; url: string }[] = [];
      for (const colour of ['#ff0000', '#0000ff']) {
        const form = new FormData();
        form.append('token', host.token);
        const bytes = new Uint8Array(await bandOverlay(colour));
        form.append('file', new Blob([bytes], { type: 'image/png' }), 'overlay.png');
        const added = await fetch(`${APP_URL}/api/${peopleCalls.addBrandOverlay.name}`, { method: 'POST', body: form });
        expect(added.status).toBe(200);
        const body = (await added.json()) as { data: { overlays: { id: number; url: string }[] } };
        library.splice(0, library.length, ...body.data.overlays);
      }
      const [overlayA, overlayB] = library;

      const meeting = await createMeeting(host);
      const people = [await joinRoom(browser, meeting.slug, { account: host })];
      try {
        await Promise.all(people.map(inCall));
        const started = await goLiveToReceiver(host, meeting.slug, 'e2e-overlay-key');
        expect(started.httpStatus).toBe(200);
        const picked = await apiPost(streamingCalls.setBroadcastOverlay, {
          token: host.token,
          meetId: meeting.slug,
          overlay_image: overlayA!.id,
        });
        expect(picked.httpStatus).toBe(200);
        await expect.poll(() => receiver.bytes(), { timeout: 60_000 }).toBeGreaterThan(300_000);

        const band = (frame: Frame) => ({
          frame,
          red: countPixels(frame, SIZE.width, OVERLAY_BAND, isRed),
          blue: countPixels(frame, SIZE.width, OVERLAY_BAND, isBlue),
        });
        const BAND_PIXELS = OVERLAY_BAND.width * OVERLAY_BAND.height;
        let seenA: ReturnType<typeof band> | undefined;
        await expect
          .poll(
            () => {
              seenA = segmentFramesFrom(receiver, latestSegmentEnd(receiver) - 1, SIZE)
                .map(band)
                .at(-1);
              return seenA ? `red ${seenA.red}, blue ${seenA.blue}` : 'no frame yet';
            },
            { timeout: 60_000, intervals: [2000] },
          )
          .toMatch(/^red (\d+), blue 0$/);
        expect(seenA!.red).toBeGreaterThan(BAND_PIXELS * 0.8);
        await attachFramePng(seenA!.frame, SIZE, 'overlay-a');

        // The host switches to overlay 2 in the studio's Live panel.
        const studio = people[0]!.page;
        const text = (namespace: string, key: string) => localeText('en', namespace, key);
        await studio.getByRole('button', { name: text('room', 'controls.live_on_air') }).click();
        const panel = studio.getByRole('region', { name: text('streaming', 'live.panel_title'), exact: true });
        const picker = panel.getByRole('group', { name: text('streaming', 'overlay_image.title') });
        const second = picker.getByRole('button', { name: 'Overlay 2' });
        await expect(picker.getByRole('button', { name: 'Overlay 1' })).toHaveAttribute('aria-pressed', 'true');
        const round = receiver.file;
        const before = liveEdge(receiver);
        await second.click();
        await expect(second).toHaveAttribute('aria-pressed', 'true');
        const chosen = await apiPost(streamingCalls.getBroadcast, { token: host.token, meetId: meeting.slug });
        expect((chosen.body.data as { data: { overlay: { overlay_image: unknown } } }).data.overlay.overlay_image).toBe(
          overlayB!.id,
        );
        await picker.screenshot({ path: test.info().outputPath('live-panel-overlay-picker.png') });

        let seenB: ReturnType<typeof band> | undefined;
        await expect
          .poll(
            () => {
              seenB = segmentFramesFrom(receiver, readFromSince(receiver, round, before), SIZE)
                .map(band)
                .find((measured) => measured.blue > BAND_PIXELS * 0.8 && measured.red === 0);
              return seenB !== undefined;
            },
            { timeout: 60_000, intervals: [1000] },
          )
          .toBe(true);
        await attachFramePng(seenB!.frame, SIZE, 'overlay-b');
        console.log(
          `received overlay band: A ${seenA!.red} red px, then B ${seenB!.blue} blue px of ${BAND_PIXELS} (half size); ` +
            (receiver.file === round
              ? `switch seen ${Math.round((seenB!.frame.pts - before) * 1000)} ms after the click's edge`
              : 'after a new push'),
        );
      } finally {
        await stopBroadcastSurely(host, meeting.slug);
        await leave(...people);
        await receiver.stop();
      }
    },
  );
});
