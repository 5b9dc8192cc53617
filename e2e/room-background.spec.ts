import type { Browser, Locator, Page } from '@playwright/test';
import { expect, test, type Account } from './fixtures';
import { createMeeting, expectDecodingFrom, inCall, joinRoom, leave } from './support/room';

declare global {
  interface Window {
    cspViolations?: string[];
    /** Read by the effect (apps/web effects/background-effect.ts): how long a frame may take. */
    __meetcastFrameBudgetMs?: number;
    __meetcastBackground?: { stats(): { frames: number; segmentedFrames: number; meanMs: number } | undefined };
  }
}

interface Sample {
  /** Mean colour of a band near the top of the frame (background there: no person in the fake camera). */
  top: [number, number, number];
  /** Mean brightness step between neighbouring pixels: high for the fake camera's sharp drawing. */
  sharpness: number;
}

/** What `viewer` receives of `name`'s camera right now: its <video> drawn to a canvas and measured. */
function sampleRemote(viewer: Page, name: string): Promise<Sample | undefined> {
  return viewer
    .locator('figure[data-kind="camera"]', { hasText: name })
    .locator('video')
    .evaluate((video: HTMLVideoElement) => {
      const width = video.videoWidth;
      const height = video.videoHeight;
      if (!width || !height) return undefined;
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      context.drawImage(video, 0, 0);
      const { data } = context.getImageData(0, 0, width, height);
      const top: [number, number, number] = [0, 0, 0];
      let topCount = 0;
      for (let y = Math.floor(height * 0.05); y < height * 0.15; y += 1) {
        for (let x = 0; x < width; x += 1) {
          const index = (y * width + x) * 4;
          top[0] += data[index]!;
          top[1] += data[index + 1]!;
          top[2] += data[index + 2]!;
          topCount += 1;
        }
      }
      let steps = 0;
      let stepCount = 0;
      const luma = (index: number) => 0.299 * data[index]! + 0.587 * data[index + 1]! + 0.114 * data[index + 2]!;
      for (let y = 0; y < height; y += 2) {
        for (let x = 0; x < width - 1; x += 1) {
          const index = (y * width + x) * 4;
          steps += Math.abs(luma(index + 4) - luma(index));
          stepCount += 1;
        }
      }
      return {
        top: top.map((sum) => Math.round(sum / topCount)) as [number, number, number],
        sharpness: steps / stepCount,
      };
    });
}

/** Whether a colour is within `tolerance` of the expected one on every channel (video coding shifts colours a little). */
function isNear(actual: [number, number, number] | undefined, expected: [number, number, number], tolerance = 40) {
  return Boolean(actual?.every((value, channel) => Math.abs(value - expected[channel]!) <= tolerance));
}

// The top of the scenes (apps/web/src/features/room/effects/background-scenes.ts), at 10 % height.
const SUNSET_TOP: [number, number, number] = [255, 132, 76];
const LAGOON_TOP: [number, number, number] = [112, 207, 243];

/** Picks a background as a person does: a click on its picture or name (the radio itself is visually hidden). */
async function pick(group: Locator, name: string) {
  await group.locator('label', { hasText: name }).click();
  await expect(group.getByRole('radio', { name })).toBeChecked();
}

/** Joins `slug` as `account`, in the call, with the time the background effect may take per frame. */
async function joinWithFrameBudget(browser: Browser, slug: string, account: Account, budgetMs: number) {
  const participant = await joinRoom(browser, slug, {
    account,
    prepare: async (context) => {
      await context.addInitScript((budget) => (window.__meetcastFrameBudgetMs = budget), budgetMs);
    },
  });
  await inCall(participant);
  return participant;
}

test.describe('background effects', () => {
  test.describe.configure({ timeout: 240_000 });

  test('blur and a scene reach the other participant, live, and survive a reload', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Bea Background' });
    const meeting = await createMeeting(host);
    const bea = await joinRoom(browser, meeting.slug, {
      account: host,
      prepare: async (context) => {
        await context.addInitScript(() => {
          // This test proves what the other side sees, not this shared machine's speed (the next test
          // and bench/background-effects.ts do that): the effect may take its time here.
          window.__meetcastFrameBudgetMs = 10_000;
          document.addEventListener('securitypolicyviolation', (event) => {
            (window.cspViolations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`);
          });
        });
      },
    });
    await inCall(bea);
    const gus = await joinRoom(browser, meeting.slug, { name: 'Gus Guest' });
    await inCall(gus);
    await expectDecodingFrom(gus.page, 1);
    const seen = () => sampleRemote(gus.page, 'Bea Background');
    await expect.poll(async () => (await seen())?.sharpness ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const plain = (await seen())!;

    const menuButton = bea.page.getByRole('button', { name: 'Audio and video settings' });
    await menuButton.click();
    const menu = bea.page.getByRole('dialog', { name: 'Audio and video settings' });
    const backgrounds = menu.getByRole('group', { name: 'Background' });
    await expect(backgrounds.getByRole('radio', { name: 'None' })).toBeChecked();

    // Blur: the fake camera's sharp drawing (moving shapes, a frame counter) turns smooth for Gus.
    await pick(backgrounds, 'Blur');
    await expect
      .poll(async () => (await seen())?.sharpness ?? Infinity, { timeout: 60_000, intervals: [500, 1000] })
      .toBeLessThan(plain.sharpness * 0.5);

    // A scene: its colours replace the camera's background.
    await pick(backgrounds, 'Sunset');
    await expect.poll(async () => isNear((await seen())?.top, SUNSET_TOP), { timeout: 60_000 }).toBe(true);
    await pick(backgrounds, 'Lagoon');
    await expect.poll(async () => isNear((await seen())?.top, LAGOON_TOP), { timeout: 60_000 }).toBe(true);

    // Remembered: after a reload Bea is back in the call with the same background, still picked.
    await bea.page.reload();
    await inCall(bea);
    await expect.poll(async () => isNear((await seen())?.top, LAGOON_TOP), { timeout: 90_000 }).toBe(true);
    await bea.page.getByRole('button', { name: 'Audio and video settings' }).click();
    await expect(
      bea.page
        .getByRole('dialog', { name: 'Audio and video settings' })
        .getByRole('group', { name: 'Background' })
        .getByRole('radio', { name: 'Lagoon' }),
    ).toBeChecked();

    // None again: the camera's own picture, sharp as before.
    await pick(bea.page.getByRole('group', { name: 'Background' }), 'None');
    await expect
      .poll(async () => (await seen())?.sharpness ?? 0, { timeout: 60_000, intervals: [500, 1000] })
      .toBeGreaterThan(plain.sharpness * 0.7);
    expect(await bea.page.evaluate(() => window.cspViolations ?? [])).toEqual([]);
    await leave(bea, gus);
  });

  test('a picture from disk goes behind the person and is remembered; a file that is no picture is refused', async ({
    browser,
    signUp,
  }) => {
    const host = await signUp({ username: 'Pia Picture' });
    const meeting = await createMeeting(host);
    const pia = await joinWithFrameBudget(browser, meeting.slug, host, 10_000);
    // A plain magenta picture, made by the browser itself (as a photo from disk would be a PNG or a JPEG).
    const picture = Buffer.from(
      (
        await pia.page.evaluate(() => {
          const canvas = document.createElement('canvas');
          canvas.width = 800;
          canvas.height = 600;
          const context = canvas.getContext('2d')!;
          context.fillStyle = 'rgb(200, 40, 160)';
          context.fillRect(0, 0, 800, 600);
          return canvas.toDataURL('image/png');
        })
      ).split(',')[1]!,
      'base64',
    );
    const MAGENTA: [number, number, number] = [200, 40, 160];
    const ownTile = () => sampleRemote(pia.page, 'Pia Picture');

    await pia.page.getByRole('button', { name: 'Audio and video settings' }).click();
    const backgrounds = pia.page.getByRole('group', { name: 'Background' });
    await expect(backgrounds.getByRole('radio', { name: 'Your picture' })).toHaveCount(0);
    const addPicture = backgrounds.getByLabel('Add a picture');
    await addPicture.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await expect(pia.page.getByText('This file cannot be used as a background', { exact: false })).toBeVisible();
    await expect(backgrounds.getByRole('radio', { name: 'None' })).toBeChecked();

    await addPicture.setInputFiles({ name: 'magenta.png', mimeType: 'image/png', buffer: picture });
    await expect(backgrounds.getByRole('radio', { name: 'Your picture' })).toBeChecked();
    await expect.poll(async () => isNear((await ownTile())?.top, MAGENTA), { timeout: 60_000 }).toBe(true);

    // Kept in this browser: after a reload the same picture is behind Pia again.
    await pia.page.reload();
    await inCall(pia);
    await expect.poll(async () => isNear((await ownTile())?.top, MAGENTA), { timeout: 90_000 }).toBe(true);
    await leave(pia);
  });

  test('a device too slow for the effect falls back to no effect, with a notice', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Sid Slow' });
    const meeting = await createMeeting(host);
    // No frame can be processed this fast: every frame counts as too slow.
    const sid = await joinWithFrameBudget(browser, meeting.slug, host, 0.001);
    await sid.page.getByRole('button', { name: 'Audio and video settings' }).click();
    const backgrounds = sid.page.getByRole('group', { name: 'Background' });
    await pick(backgrounds, 'Meadow');
    await expect(
      sid.page.getByText('This device is too slow for the background effect, so it was turned off.'),
    ).toBeVisible({ timeout: 60_000 });
    await expect(backgrounds.getByRole('radio', { name: 'None' })).toBeChecked();
    // Segmented frames were processed before the verdict (the model had loaded), and none was remembered.
    expect((await sid.page.evaluate(() => window.__meetcastBackground?.stats()))?.segmentedFrames).toBeGreaterThan(0);
    expect(await sid.page.evaluate(() => localStorage.getItem('meetcast.background'))).toBe('{"kind":"none"}');
    await leave(sid);
  });
});
