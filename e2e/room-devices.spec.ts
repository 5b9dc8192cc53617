import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { createMeeting, expectDecodingFrom, expectFramesGrowing, inCall, joinRoom, leave } from './support/room';

// Chromium's fake capture makes as many cameras as `device-count` asks (one by default), so a
// switch has a real camera to go to. The second one is a depth camera (16-bit grey frames) that
// WebRTC does not send, so the tests use the first and the third. There are always three
// microphones and three outputs.
test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS.map((arg) => (arg === '--use-fake-device-for-media-stream' ? `${arg}=device-count=3` : arg)),
  },
});

type Sending = { audio?: string; video?: string };

declare global {
  interface Window {
    /** The room page's test hook (apps/web use-room-media.ts). */
    __meetcastRoom?: {
      inboundVideo(): Promise<{ feedId: number }[]>;
      publisherConnection(): RTCPeerConnection | undefined;
    };
  }
}

/** Labels of the tracks the camera publisher's connection sends right now. */
function sending(page: Page): Promise<Sending> {
  return page.evaluate(() => {
    const pc = window.__meetcastRoom?.publisherConnection();
    const result: Record<string, string> = {};
    for (const sender of pc?.getSenders() ?? []) if (sender.track) result[sender.track.kind] = sender.track.label;
    return result;
  });
}

/** Keeps the page's publisher connection and counts its offer/answer rounds from now on. */
async function watchPublisher(page: Page) {
  await page.evaluate(() => {
    const pc = window.__meetcastRoom?.publisherConnection();
    if (!pc) throw new Error('not publishing');
    const watched = window as unknown as { __watchedPc: RTCPeerConnection; __negotiations: number };
    watched.__watchedPc = pc;
    watched.__negotiations = 0;
    pc.addEventListener('signalingstatechange', () => (watched.__negotiations += 1));
  });
}

/** Whether the publisher is still the one watched, and how many negotiations it went through. */
function publisherSince(page: Page) {
  return page.evaluate(() => {
    const watched = window as unknown as { __watchedPc: RTCPeerConnection; __negotiations: number };
    return {
      isSameConnection: window.__meetcastRoom?.publisherConnection() === watched.__watchedPc,
      negotiations: watched.__negotiations,
    };
  });
}

/** The Janus feed ids this page receives video from (a rejoin would publish a new one). */
async function feedIds(page: Page) {
  const entries = await page.evaluate(async () => (await window.__meetcastRoom?.inboundVideo()) ?? []);
  return entries.map((entry) => entry.feedId).sort();
}

/**
 * Unplugging, simulated: the browser's device list leaves out "unplugged" devices and refuses to
 * open them. `__unplug` then fires 'devicechange' as the browser does; `__unplugQuietly` does not,
 * for the path where the track's own 'ended' event is what tells the page.
 */
async function withUnpluggableDevices(context: BrowserContext) {
  await context.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const unplugged = new Set<string>();
    const list = devices.enumerateDevices.bind(devices);
    const open = devices.getUserMedia.bind(devices);
    devices.enumerateDevices = async () => (await list()).filter((device) => !unplugged.has(device.deviceId));
    devices.getUserMedia = async (constraints) => {
      for (const kind of ['audio', 'video'] as const) {
        const wanted = constraints?.[kind];
        const id = typeof wanted === 'object' ? (wanted.deviceId as { exact?: string } | undefined)?.exact : undefined;
        if (id && unplugged.has(id)) throw new DOMException('Requested device not found', 'NotFoundError');
      }
      return open(constraints);
    };
    const page = window as unknown as Record<string, (id: string) => void>;
    page.__unplugQuietly = (id) => unplugged.add(id);
    page.__unplug = (id) => {
      unplugged.add(id);
      devices.dispatchEvent(new Event('devicechange'));
    };
  });
}

test.describe('devices in the call', () => {
  test.describe.configure({ timeout: 180_000 });

  test('switches camera, microphone and speaker in place and remembers them', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Dora Devices' });
    const meeting = await createMeeting(host);
    const dora = await joinRoom(browser, meeting.slug, { account: host });
    await inCall(dora);
    const gus = await joinRoom(browser, meeting.slug, { name: 'Gus Guest' });
    await inCall(gus);
    await expectDecodingFrom(dora.page, 1);
    await expectDecodingFrom(gus.page, 1);
    await expect.poll(() => sending(dora.page)).toEqual({ audio: 'Fake Default Audio Input', video: 'fake_device_0' });
    const feedsBefore = await feedIds(gus.page);
    await watchPublisher(dora.page);

    const menuButton = dora.page.getByRole('button', { name: 'Audio and video settings' });
    await menuButton.click();
    const menu = dora.page.getByRole('dialog', { name: 'Audio and video settings' });
    await expect(menu.getByRole('meter', { name: 'Microphone level' })).toBeVisible();
    // The fake microphone plays a beep: the meter moves.
    await expect
      .poll(async () => Number(await menu.getByRole('meter').getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect(menu.getByLabel('Camera', { exact: true })).toBeFocused();
    await menu.getByLabel('Camera', { exact: true }).selectOption({ label: 'fake_device_2' });
    await menu.getByLabel('Microphone', { exact: true }).selectOption({ label: 'Fake Audio Input 2' });
    await menu.getByLabel('Speaker', { exact: true }).selectOption({ label: 'Fake Audio Output 1' });

    // The same publisher connection sends the new tracks: replaceTrack, no offer/answer, no rejoin.
    await expect.poll(() => sending(dora.page)).toEqual({ audio: 'Fake Audio Input 2', video: 'fake_device_2' });
    expect(await publisherSince(dora.page)).toEqual({ isSameConnection: true, negotiations: 0 });
    await expectFramesGrowing(gus.page);
    expect(await feedIds(gus.page)).toEqual(feedsBefore);
    // Everyone else's sound now plays on the chosen output.
    const chosenOutput = await menu.getByLabel('Speaker', { exact: true }).inputValue();
    await expect
      .poll(() =>
        dora.page.evaluate(() =>
          Array.from(document.querySelectorAll<HTMLVideoElement>('figure video'))
            .filter((v) => !v.muted)
            .map((v) => v.sinkId),
        ),
      )
      .toEqual([chosenOutput]);

    await dora.page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();

    // The next join in this browser starts with the same devices.
    const again = await dora.context.newPage();
    await again.goto(`/room/${meeting.slug}`);
    await expect(again.getByLabel('Camera', { exact: true }).locator('option:checked')).toHaveText('fake_device_2');
    await expect(again.getByLabel('Microphone', { exact: true }).locator('option:checked')).toHaveText(
      'Fake Audio Input 2',
    );
    await expect(again.getByLabel('Speaker', { exact: true }).locator('option:checked')).toHaveText(
      'Fake Audio Output 1',
    );
    await leave(dora, gus);
  });

  test('an unplugged camera or microphone falls back to another with a notice', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Una Unplugged' });
    const meeting = await createMeeting(host);
    const una = await joinRoom(browser, meeting.slug, {
      account: host,
      prepare: async (context) => {
        await withUnpluggableDevices(context);
        // Without the depth camera, the camera to fall back to is one that WebRTC sends.
        await context.addInitScript(() => {
          const devices = navigator.mediaDevices;
          const list = devices.enumerateDevices.bind(devices);
          devices.enumerateDevices = async () => (await list()).filter((device) => device.label !== 'fake_device_1');
        });
      },
    });
    await inCall(una);
    const gus = await joinRoom(browser, meeting.slug, { name: 'Gus Guest' });
    await inCall(gus);
    await expectDecodingFrom(gus.page, 1);
    await expect.poll(() => sending(una.page)).toMatchObject({ video: 'fake_device_0' });
    const feedsBefore = await feedIds(gus.page);
    await watchPublisher(una.page);

    // The camera leaves the device list ('devicechange'); its track has not ended.
    await una.page.evaluate(() => {
      const camera = window.__meetcastRoom
        ?.publisherConnection()
        ?.getSenders()
        .find((s) => s.track?.kind === 'video');
      (window as unknown as Record<string, (id: string) => void>).__unplug!(camera!.track!.getSettings().deviceId!);
    });
    await expect(una.page.getByText('Your camera was disconnected. Now using fake_device_2.')).toBeVisible();
    await expect.poll(() => sending(una.page)).toMatchObject({ video: 'fake_device_2' });
    await expectFramesGrowing(gus.page);

    // The microphone's track ends (what a browser does when the device goes away).
    const microphone = await una.page.evaluate(() => {
      const track = window.__meetcastRoom
        ?.publisherConnection()
        ?.getSenders()
        .find((s) => s.track?.kind === 'audio')?.track;
      (window as unknown as Record<string, (id: string) => void>).__unplugQuietly!(track!.getSettings().deviceId!);
      track!.dispatchEvent(new Event('ended'));
      return track!.label;
    });
    await expect(una.page.getByText(/^Your microphone was disconnected\. Now using /)).toBeVisible();
    await expect.poll(async () => (await sending(una.page)).audio).not.toBe(microphone);
    expect(await publisherSince(una.page)).toEqual({ isSameConnection: true, negotiations: 0 });
    expect(await feedIds(gus.page)).toEqual(feedsBefore);
    await expectFramesGrowing(gus.page);
    await leave(una, gus);
  });
});

test.describe('tiles', () => {
  test.describe.configure({ timeout: 180_000 });

  test('show whole videos, and stay in view above the chat at phone width', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Tia Tiles' });
    const meeting = await createMeeting(host);
    const tia = await joinRoom(browser, meeting.slug, { account: host });
    await inCall(tia);
    const gus = await joinRoom(browser, meeting.slug, { name: 'Gus Guest' });
    await inCall(gus);
    await expectDecodingFrom(tia.page, 1);
    const page = tia.page;
    const fits = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('figure video')).map((v) => getComputedStyle(v).objectFit),
      );
    await expect.poll(fits).toEqual(['contain', 'contain']);
    // Two 4:3 cameras on a wide stage: side by side.
    await expect(page.locator('[data-columns]')).toHaveAttribute('data-columns', '2');

    await page.getByRole('button', { name: 'Switch to speaker view' }).click();
    const speaker = page.getByRole('figure', { name: /Gus Guest/ });
    await expect(speaker.locator('video')).toHaveCSS('object-fit', 'contain');
    await page.getByRole('button', { name: 'Switch to grid view' }).click();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Chat' }).click();
    const chat = page.getByRole('region', { name: 'Chat' });
    await expect(chat).toBeVisible();
    // The grid sizes its tiles once it has measured the smaller stage (a ResizeObserver, a render
    // later), so the figures are read until they settle.
    const tiles = page.getByRole('main', { name: 'Meeting video' }).getByRole('figure');
    const tilesOutOfPlace = async () => {
      const chatTop = (await chat.boundingBox())?.y ?? 0;
      const boxes = await Promise.all((await tiles.all()).map((figure) => figure.boundingBox()));
      return boxes.filter(
        (box) =>
          !box ||
          box.width <= 120 ||
          box.height <= 90 ||
          box.x < 0 ||
          box.x + box.width > 390 ||
          // Under the chat sheet.
          box.y + box.height > chatTop,
      );
    };
    await expect(tiles).toHaveCount(2);
    await expect.poll(tilesOutOfPlace).toEqual([]);
    await expect(chat.getByLabel('Message')).toBeInViewport();
    await page.getByRole('button', { name: 'Close panel' }).click();
    await expect(chat).toBeHidden();
    await leave(tia, gus);
  });
});
