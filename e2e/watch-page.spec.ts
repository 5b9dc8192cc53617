import { streamingCalls } from '@meetcast/contracts';
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { APP_URL } from './support/ports';
import { createMeeting, inCall, joinRoom, leave } from './support/room';

const WIDE = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };
const SHOTS = '/tmp/watch-shots';

type Look = 'light' | 'dark' | 'ar';

async function openWatchPage(browser: Browser, slug: string, viewport: typeof WIDE, look: Look = 'light') {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(
    ({ theme, language }) => {
      localStorage.setItem('theme', theme);
      localStorage.setItem('i18nextLng', language);
    },
    { theme: look === 'dark' ? 'dark' : 'light', language: look === 'ar' ? 'ar' : 'en' },
  );
  const page = await context.newPage();
  const openedAt = Date.now();
  await page.goto(`${APP_URL}/channel/${slug}`);
  await expect(page.getByTestId('player-mode')).toHaveAttribute('data-mode', 'webrtc', { timeout: 90_000 });
  await expect
    .poll(() => page.getByTestId('live-video').evaluate((video: HTMLVideoElement) => video.currentTime), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  console.log(`${viewport.width}×${viewport.height} ${look}: picture ${Date.now() - openedAt} ms after opening`);
  return { context, page };
}

/** The element's box, all of it inside the viewport. */
async function expectWithinViewport(page: Page, element: Locator) {
  const box = (await element.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
  return box;
}

const videoOf = (page: Page) => page.getByTestId('live-video');
const isPaused = (page: Page) => videoOf(page).evaluate((video: HTMLVideoElement) => video.paused);
const isMuted = (page: Page) => videoOf(page).evaluate((video: HTMLVideoElement) => video.muted);

/** The picture's clock advances: it plays. */
async function expectAdvancing(page: Page) {
  const before = await videoOf(page).evaluate((video: HTMLVideoElement) => video.currentTime);
  await expect
    .poll(() => videoOf(page).evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(before + 1);
}

// ADR 037: a real broadcast (the composer records; no platform), its watch page as a signed-out viewer sees it.
test.describe('the watch page', () => {
  // Three to seven minutes on a busy two-core machine: the broadcast's start, 40 s in the rewind window,
  // and six page loads beside the running composer (each 15-30 s to a picture at a load average of 25).
  test.describe.configure({ timeout: 540_000 });

  test(
    'player first at 1366×800 and 390×844, chat beside or under it, unmute prompt, shortcuts, theatre, rewind and back to live, audio only',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const host = await signUp({ username: 'Wanda Watch' });
      const meeting = await createMeeting(host);
      const wanda = await joinRoom(browser, meeting.slug, { account: host });
      const opened: { context: { close(): Promise<void> } }[] = [];
      try {
        await inCall(wanda);
        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: meeting.slug,
          destinations: '[]',
          record: 1,
        });
        expect(started.httpStatus).toBe(200);

        // Wide: the whole player in the first screen, the chat beside it and in view too.
        const wide = await openWatchPage(browser, meeting.slug, WIDE);
        opened.push(wide);
        const page = wide.page;
        const player = page.getByTestId('live-player');
        const playerBox = await expectWithinViewport(page, player);
        const chat = page.getByRole('region', { name: 'Live chat' });
        await expect(chat).toBeVisible();
        const chatBox = (await chat.boundingBox())!;
        expect(chatBox.x).toBeGreaterThanOrEqual(playerBox.x + playerBox.width);
        expect(chatBox.y).toBeLessThan(WIDE.height / 2);
        console.log(`1366×800: player ${JSON.stringify(playerBox)}, chat at x=${chatBox.x}`);

        // Started muted by the browser's rule: the prompt turns the sound on and goes.
        expect(await isMuted(page)).toBe(true);
        await page.getByRole('button', { name: 'Tap to unmute' }).click();
        expect(await isMuted(page)).toBe(false);
        await expect(page.getByRole('button', { name: 'Tap to unmute' })).toHaveCount(0);

        // Shortcuts on the page, not while typing in the chat.
        await page.getByRole('heading', { level: 1 }).first().click();
        await page.keyboard.press('k');
        await expect.poll(() => isPaused(page)).toBe(true);
        await page.keyboard.press('Space');
        await expect.poll(() => isPaused(page)).toBe(false);
        await page.keyboard.press('m');
        await expect.poll(() => isMuted(page)).toBe(true);
        const message = chat.getByLabel('Message', { exact: true });
        await message.click();
        await page.keyboard.type('km t');
        await expect(message).toHaveValue('km t');
        expect(await isPaused(page)).toBe(false);
        expect(await isMuted(page)).toBe(true);
        await page.getByRole('heading', { level: 1 }).first().click();
        await page.keyboard.press('m');
        await expect.poll(() => isMuted(page)).toBe(false);
        await page.keyboard.press('f');
        await expect
          .poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid')))
          .toBe('live-player');
        await page.keyboard.press('f');
        await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);

        // Theatre: the player across the page, still whole in the first screen; the chat under it.
        const stage = page.getByRole('region', { name: 'Now on this channel' });
        await page.keyboard.press('t');
        await expect(stage).toHaveAttribute('data-theatre', '');
        const theatreBox = await expectWithinViewport(page, player);
        expect(theatreBox.width).toBeGreaterThan(playerBox.width);
        expect((await chat.boundingBox())!.y).toBeGreaterThanOrEqual(theatreBox.y + theatreBox.height);
        await player.getByRole('button', { name: 'Theatre mode' }).click();
        await expect(stage).not.toHaveAttribute('data-theatre');

        // Rewind while live, as far as the window holds (ADR 037): once the rewind playlist lists 40 s,
        // back 25 s in four steps over it; the picture's own clock says how far behind the DVR edge it
        // plays, and the position shown agrees; two more steps go 10 s further; then live again over WebRTC.
        const dvrRequests: string[] = [];
        page.on('request', (request) => {
          if (/\/(dvr|audio)(-\d+\.ts|\.m3u8)$/.test(request.url())) dvrRequests.push(request.url());
        });
        const rewindBar = page.getByTestId('rewind-bar');
        await expect(rewindBar).toBeVisible({ timeout: 90_000 });
        await expect
          .poll(async () => Number(await rewindBar.getAttribute('max')), { timeout: 120_000, intervals: [1000] })
          .toBeGreaterThanOrEqual(40);
        for (let step = 0; step < 4; step++) await page.keyboard.press('ArrowLeft');
        await expect(page.getByTestId('player-mode')).toHaveAttribute('data-mode', 'dvr', { timeout: 30_000 });
        await expectAdvancing(page);
        const behindDvrEdge = () =>
          videoOf(page).evaluate((video: HTMLVideoElement) =>
            video.seekable.length > 0 ? video.seekable.end(video.seekable.length - 1) - video.currentTime : 0,
          );
        // 25 s back, give or take the 4-s segment it starts at and the playlist's reload.
        await expect.poll(behindDvrEdge, { timeout: 15_000 }).toBeGreaterThanOrEqual(17);
        expect(await behindDvrEdge()).toBeLessThanOrEqual(37);
        const shownSeconds = async () => {
          const [minutes, seconds] = ((await page.getByTestId('rewind-position').textContent()) ?? '')
            .replace('−', '')
            .split(':')
            .map(Number);
          return minutes! * 60 + seconds!;
        };
        await expect(page.getByTestId('rewind-position')).toHaveText(/^−0:[1-4]\d$/, { timeout: 10_000 });
        const rewound = await shownSeconds();
        expect(Math.abs(rewound - (await behindDvrEdge()))).toBeLessThanOrEqual(6);
        expect(dvrRequests.some((url) => url.endsWith('dvr.m3u8'))).toBe(true);
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        await expect.poll(behindDvrEdge, { timeout: 15_000 }).toBeGreaterThan(rewound + 5);
        await expect.poll(shownSeconds, { timeout: 10_000 }).toBeGreaterThan(rewound + 5);
        await expectAdvancing(page);
        const further = Math.round(await behindDvrEdge());
        // "Go back 5 minutes": sixty steps of five seconds. The window holds less (the broadcast is a minute
        // old), so the picture lands at the window's start and the position shown says how far back that is.
        const windowStart = () =>
          videoOf(page).evaluate((video: HTMLVideoElement) =>
            video.seekable.length > 0 ? video.currentTime - video.seekable.start(0) : Number.NaN,
          );
        for (let step = 0; step < 60; step++) await page.keyboard.press('ArrowLeft');
        await expect.poll(windowStart, { timeout: 15_000 }).toBeLessThanOrEqual(10);
        await expectAdvancing(page);
        const atStart = await behindDvrEdge();
        const listed = await videoOf(page).evaluate(
          (video: HTMLVideoElement) => video.seekable.end(video.seekable.length - 1) - video.seekable.start(0),
        );
        expect(atStart).toBeGreaterThanOrEqual(listed - 12);
        await expect
          .poll(async () => Math.abs((await shownSeconds()) - (await behindDvrEdge())), { timeout: 10_000 })
          .toBeLessThanOrEqual(6);
        expect(await page.getByTestId('player-mode').getAttribute('data-mode')).toBe('dvr');
        console.log(
          `rewound to −${rewound} s, then −${further} s, then 5 min asked: −${Math.round(atStart)} s of ${Math.round(listed)} s listed (shown −${await shownSeconds()} s)`,
        );
        const backAt = Date.now();
        await page.getByRole('button', { name: 'Back to live' }).click();
        await expect(page.getByTestId('player-mode')).toHaveAttribute('data-mode', 'webrtc', { timeout: 30_000 });
        await expect(page.getByTestId('rewind-position')).toHaveText('Live');
        await expectAdvancing(page);
        console.log(
          `back to live over WebRTC in ${Date.now() - backAt} ms: ${await page.getByTestId('player-mode').textContent()}`,
        );

        // Audio only: the sound playlist alone, no picture; Auto brings the picture back.
        await player.getByRole('button', { name: 'Settings' }).click();
        await page.getByRole('menuitemradio', { name: 'Audio only' }).click();
        await expect(page.getByTestId('player-mode')).toHaveAttribute('data-mode', 'audio', { timeout: 30_000 });
        await expect(player.getByText('Audio only: the picture is off to save data.')).toBeVisible();
        await expectAdvancing(page);
        expect(await videoOf(page).evaluate((video: HTMLVideoElement) => video.videoWidth)).toBe(0);
        expect(dvrRequests.some((url) => /audio-\d+\.ts$/.test(url))).toBe(true);
        await player.getByRole('button', { name: 'Settings' }).click();
        await page.getByRole('menuitemradio', { name: 'Auto' }).click();
        await expect(page.getByTestId('player-mode')).toHaveAttribute('data-mode', 'webrtc', { timeout: 30_000 });

        // Phone: the player whole at the top, the chat under it; scrolled, the player stays.
        const phone = await openWatchPage(browser, meeting.slug, PHONE, 'dark');
        opened.push(phone);
        const phonePlayer = phone.page.getByTestId('live-player');
        const phoneBox = await expectWithinViewport(phone.page, phonePlayer);
        const phoneChat = phone.page.getByRole('region', { name: 'Live chat' });
        expect((await phoneChat.boundingBox())!.y).toBeGreaterThanOrEqual(phoneBox.y + phoneBox.height);
        await phone.page.mouse.wheel(0, 500);
        await expect.poll(() => phone.page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
        await expect.poll(async () => (await phonePlayer.boundingBox())!.y).toBeLessThanOrEqual(1);
        console.log(`390×844: player ${JSON.stringify(phoneBox)}`);

        // Look at it: light, dark and Arabic at both sizes. The two pages open already are two of the six.
        const snap = async (shown: Page, name: string) => {
          await expectWithinViewport(shown, shown.getByTestId('live-player'));
          await expect(shown.getByTestId('rewind-bar')).toBeVisible();
          await expectAdvancing(shown);
          const file = `${SHOTS}/${name}.png`;
          await shown.screenshot({ path: file });
          await test.info().attach(name, { path: file, contentType: 'image/png' });
        };
        await phone.page.evaluate(() => window.scrollTo(0, 0));
        await snap(phone.page, 'phone-dark');
        await snap(page, 'wide-light');
        // Fewer viewers beside the composer while the other looks load.
        await wide.context.close();
        await phone.context.close();
        for (const [name, viewport, look] of [
          ['wide-dark', WIDE, 'dark'],
          ['wide-ar', WIDE, 'ar'],
          ['phone-light', PHONE, 'light'],
          ['phone-ar', PHONE, 'ar'],
        ] as const) {
          const shown = await openWatchPage(browser, meeting.slug, viewport, look);
          opened.push(shown);
          if (look === 'ar') await expect(shown.page.locator('html')).toHaveAttribute('dir', 'rtl');
          await snap(shown.page, name);
          await shown.context.close();
        }
      } finally {
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });
        for (const one of opened) await one.context.close().catch(() => undefined);
        await leave(wanda);
      }
    },
  );
});
