import { streamingCalls } from '@meetcast/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { APP_URL, E2E_PORTS } from './support/ports';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { localeText, openStudioPreview } from './support/studio-preview';
import { addRtmpDestination, startReceivers } from './support/streaming';

// Real composer, a real RTMP receiver: the studio's rehearsal (ADR 047 part 2) and its "Go live".
test.describe('broadcast rehearsal', () => {
  test.describe.configure({ timeout: 420_000 });

  test(
    'a host rehearses with the preview while nothing is streamed, then goes live to a destination from the studio',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const folder = mkdtempSync(join(tmpdir(), 'meetcast-rehearsal-'));
      const receivers = startReceivers(folder);
      const host = await signUp({ username: 'Rhea Rehearser' });
      const meeting = await createMeeting(host);
      const rhea = await joinRoom(browser, meeting.slug, { account: host });
      try {
        await inCall(rhea);
        const setup = await rhea.context.newPage();
        await addRtmpDestination(
          setup,
          'Own server',
          `rtmp://127.0.0.1:${E2E_PORTS.customIngest}/live`,
          'e2e-custom-key',
        );
        await setup.close();

        const page = rhea.page;
        await page.getByRole('button', { name: 'Go live' }).click();
        const panel = page.getByRole('region', { name: 'Live' });
        await panel.getByRole('button', { name: 'Rehearse' }).click();

        // Rehearsing: the badge, the preview's picture, and nothing at the receiver.
        await expect(panel.getByRole('status', { name: /being rehearsed/ })).toBeVisible({ timeout: 30_000 });
        // Never a LIVE mark while rehearsing, though the encode runs.
        await expect(stateMarks(panel, 'en')).toHaveCount(0);
        const preview = panel.getByLabel('Preview of the broadcast as viewers receive it');
        await expect
          .poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoWidth), { timeout: 120_000 })
          .toBeGreaterThan(0);
        await page.waitForTimeout(3000);
        expect(receivers.custom.bytes()).toBe(0);
        // The public knows nothing of it.
        const outside = await apiPost(streamingCalls.getBroadcastViewer, { meetId: meeting.slug });
        expect(outside.body.data?.data.state).toBe('none');

        // Look at the rehearsing studio: English in the dark theme (the default), and a second window of
        // the host's in Arabic (right to left) and the light theme, kept with the test's results.
        await shoot(page, 'studio-rehearsal-dark');
        const arabic = await rhea.context.newPage();
        await arabic.addInitScript(() => window.localStorage.setItem('theme', 'light'));
        await arabic.goto(`${APP_URL}/room/${meeting.slug}?lng=ar`);
        await arabic.getByRole('button', { name: localeText('ar', 'room', 'prejoin.join') }).click();
        await expect(arabic.locator('html')).toHaveAttribute('dir', 'rtl');
        await openStudioPreview(arabic, 'ar');
        const arabicPanel = arabic.getByRole('region', { name: localeText('ar', 'streaming', 'live.panel_title') });
        await expect(
          arabicPanel.getByRole('status', { name: localeText('ar', 'streaming', 'live.rehearsal_label') }),
        ).toBeVisible();
        await expect(
          arabicPanel.getByRole('form', { name: localeText('ar', 'streaming', 'rehearsal.form') }),
        ).toBeVisible();
        await shoot(arabic, 'studio-rehearsal-ar-light');
        await arabic.close();

        // Go live from the studio: the destination gets the same running encode.
        const goLive = panel.getByRole('form', { name: 'Go live after the rehearsal' });
        await goLive.getByRole('checkbox', { name: /Own server/ }).check();
        await goLive.getByRole('button', { name: 'Go live' }).click();
        await expect.poll(() => receivers.custom.bytes(), { timeout: 60_000 }).toBeGreaterThan(100_000);
        await expect(panel.getByRole('status', { name: /being rehearsed/ })).toHaveCount(0);
        const destination = panel.getByRole('listitem').filter({ hasText: 'Own server' });
        await expect(destination.getByText('Live', { exact: true })).toBeVisible({ timeout: 30_000 });
        await expect(page.getByText('LIVE', { exact: true })).toBeVisible();
        await expect(preview).toBeVisible();
      } finally {
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });
        await leave(rhea);
        await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
      }
    },
  );
});

async function shoot(page: Page, name: string) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

/** The broadcast's LIVE marks in the panel (pills; the panel's own title says "Live" too). */
const stateMarks = (panel: Locator, language: string) =>
  panel.locator('span').filter({ hasText: new RegExp(`^${localeText(language, 'streaming', 'states.live')}$`) });
