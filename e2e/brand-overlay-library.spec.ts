import { peopleCalls, streamingCalls, type BrandKit } from '@meetcast/contracts';
import type { Browser, Page } from '@playwright/test';
import type { Account } from './support/api';
import sharp from 'sharp';
import { expect, test, useSessionCookie } from './fixtures';
import { apiPost } from './support/api';
import type { BroadcastSeed } from './support/broadcast-seed';
import { APP_URL, HOOK_URL } from './support/ports';
import { uniqueSlug } from './support/people';
import { createMeeting, leave } from './support/room';
import { localeText } from './support/studio-preview';

/** A frame-like overlay: a coloured band along the top, the rest transparent (fitted to 16:9 by the server). */
const bandOverlay = (colour: string) =>
  sharp({ create: { width: 1600, height: 900, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: { create: { width: 1600, height: 150, channels: 4, background: colour } }, top: 0, left: 0 }])
    .png()
    .toBuffer();

async function addOverlay(token: string, colour: string): Promise<BrandKit> {
  const form = new FormData();
  form.append('token', token);
  form.append('file', new Blob([new Uint8Array(await bandOverlay(colour))], { type: 'image/png' }), 'overlay.png');
  const answer = await fetch(`${APP_URL}/api/${peopleCalls.addBrandOverlay.name}`, { method: 'POST', body: form });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: BrandKit }).data;
}

const VARIANTS = [
  { name: 'light', theme: 'light', language: 'en' },
  { name: 'dark', theme: 'dark', language: 'en' },
  { name: 'arabic', theme: 'light', language: 'ar' },
] as const;

async function prefer(page: Page, variant: (typeof VARIANTS)[number]) {
  await page.addInitScript(
    ({ theme, language }) => {
      localStorage.setItem('theme', theme);
      localStorage.setItem('i18nextLng', language);
    },
    { theme: variant.theme, language: variant.language },
  );
}

/** The host in the meeting room, in the variant's theme and language (`?lng` comes first in detection). */
async function joinInLanguage(browser: Browser, slug: string, host: Account, variant: (typeof VARIANTS)[number]) {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  await useSessionCookie(context, host.token);
  await context.addInitScript((theme) => localStorage.setItem('theme', theme), variant.theme);
  const page = await context.newPage();
  const text = (key: string) => localeText(variant.language, 'room', key);
  await page.goto(`${APP_URL}/room/${slug}?lng=${variant.language}`);
  await page.getByRole('button', { name: text('prejoin.join') }).click({ timeout: 60_000 });
  await expect(page.getByRole('toolbar', { name: text('controls.toolbar') })).toBeVisible({ timeout: 45_000 });
  return { context, page };
}

// Issue 45: the brand kit's overlay library, and the Live panel's picker that switches it on the stream.
test.describe('brand overlay library', () => {
  test.beforeEach(() => test.slow());

  test('the brand kit panel adds, lists and removes library overlays (light, dark, Arabic)', async ({
    browser,
    signUp,
    signIn,
  }) => {
    const owner = await signUp({ username: 'Lia Library' });
    const channel = await apiPost(peopleCalls.createChannel, {
      token: owner.token,
      name: 'Lia Live',
      slug: uniqueSlug('lia-live'),
    });
    expect(channel.httpStatus).toBe(200);
    const channelId = (channel.body.data as { id: number }).id;
    await addOverlay(owner.token, '#dc2626');
    for (const variant of VARIANTS) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await prefer(page, variant);
      await signIn(page, owner, `/edit-channel/${channelId}?lng=${variant.language}`);
      const text = (key: string, values: Record<string, number> = {}) =>
        Object.entries(values).reduce(
          // The app isolates each value in right-to-left languages (FSI … PDI, src/i18n/i18n.ts).
          (sentence, [name, value]) =>
            sentence.replace(`{{${name}}}`, variant.language === 'ar' ? `\u2068${value}\u2069` : String(value)),
          localeText(variant.language, 'channels', `brand.${key}`),
        );
      const library = page.locator('[data-overlay-library]');
      await expect(library.getByRole('heading', { name: text('library_title') })).toBeVisible();
      if (variant.name === 'light') {
        // Added through the page's own upload button, as a person does.
        await library.locator('input[type="file"]').setInputFiles({
          name: 'blue.png',
          mimeType: 'image/png',
          buffer: await bandOverlay('#2563eb'),
        });
      }
      await expect(library.getByRole('img', { name: text('library_item', { number: 2 }) })).toBeVisible();
      await expect(library).toContainText(text('library_count', { used: 2, max: 10 }));
      await library.scrollIntoViewIfNeeded();
      await library.screenshot({ path: test.info().outputPath(`brand-kit-library-${variant.name}.png`) });
      await context.close();
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, owner, `/edit-channel/${channelId}`);
    await page.getByRole('button', { name: 'Remove overlay 2' }).click();
    await expect(page.getByRole('img', { name: 'Overlay 2' })).toHaveCount(0);
    const kit = await apiPost(peopleCalls.getBrandKit, { token: owner.token });
    expect((kit.body.data as BrandKit).overlays).toHaveLength(1);
    await context.close();
  });

  test("the Live panel's overlay picker switches the broadcast's overlay image (light, dark, Arabic)", async ({
    browser,
    signUp,
  }) => {
    const host = await signUp({ username: 'Pia Picker' });
    expect(
      (await apiPost(peopleCalls.createChannel, { token: host.token, name: 'Pia Live', slug: uniqueSlug('pia-live') }))
        .httpStatus,
    ).toBe(200);
    await addOverlay(host.token, '#dc2626');
    const kit = await addOverlay(host.token, '#16a34a');
    const meeting = await createMeeting(host);
    const seed: BroadcastSeed = { kind: 'live', meetingSlug: meeting.slug };
    const seeded = await fetch(`${HOOK_URL}/broadcast-seed`, { method: 'POST', body: JSON.stringify(seed) });
    expect(seeded.ok).toBe(true);
    for (const variant of VARIANTS) {
      const person = await joinInLanguage(browser, meeting.slug, host, variant);
      try {
        const text = (namespace: string, key: string) => localeText(variant.language, namespace, key);
        await person.page.getByRole('button', { name: text('room', 'controls.live_on_air') }).click();
        const panel = person.page.getByRole('region', { name: text('streaming', 'live.panel_title'), exact: true });
        const picker = panel.getByRole('group', { name: text('streaming', 'overlay_image.title') });
        await expect(picker.getByRole('button')).toHaveCount(3);
        if (variant.name === 'light') {
          await expect(picker.getByRole('button', { name: 'None' })).toHaveAttribute('aria-pressed', 'true');
          await picker.getByRole('button', { name: 'Overlay 2' }).click();
          await expect(picker.getByRole('button', { name: 'Overlay 2' })).toHaveAttribute('aria-pressed', 'true');
          const now = await apiPost(streamingCalls.getBroadcast, { token: host.token, meetId: meeting.slug });
          const overlay = (
            now.body.data as { data: { overlay: { overlay_image: unknown; overlay_image_url: unknown } } }
          ).data.overlay;
          expect(overlay).toEqual(
            expect.objectContaining({ overlay_image: kit.overlays![1]!.id, overlay_image_url: kit.overlays![1]!.url }),
          );
        }
        await picker.scrollIntoViewIfNeeded();
        await picker
          .locator('..')
          .screenshot({ path: test.info().outputPath(`live-panel-overlay-picker-${variant.name}.png`) });
      } finally {
        await leave(person);
      }
    }
  });
});
