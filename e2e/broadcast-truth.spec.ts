import { peopleCalls, streamingCalls } from '@meetcast/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { callAs, uniqueSlug } from './support/people';
import { APP_URL } from './support/ports';
import { inCall, joinRoom, leave } from './support/room';

/** What a page says about the broadcast: the stage's state, its label, and whether a LIVE badge shows. */
async function expectShown(page: Page, state: 'upcoming' | 'live' | 'replay', label: string) {
  const stage = page.getByRole('region', { name: 'Now on this channel' });
  await expect(stage).toHaveAttribute('data-state', state, { timeout: 90_000 });
  await expect(stage).toContainText(label);
  const liveBadges = page.getByText('Live', { exact: true });
  if (state === 'live') await expect(liveBadges.first()).toBeVisible();
  else await expect(liveBadges).toHaveCount(0);
  for (const other of ['Upcoming', 'Live now', 'Replay'].filter((text) => text !== label)) {
    await expect(stage.getByText(other, { exact: true })).toHaveCount(0);
  }
}

// ADR 022: one derivation of the public state; the watch page and the channel page never disagree.
test.describe('one truth about a broadcast', () => {
  test.describe.configure({ timeout: 300_000 });

  test(
    'the watch page and the channel page agree across scheduled → live → ended → replay, and the past lists it',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const host = await signUp({ username: 'Tara Truth' });
      const channel = await callAs(host, peopleCalls.createChannel, {
        name: 'Truth TV',
        slug: uniqueSlug('truth'),
      });
      const startsAt = Math.floor(Date.now() / 1000) + 3600;
      const scheduled = await callAs(host, peopleCalls.scheduleBroadcast, {
        id: channel.id,
        name: 'Truth Hour',
        start_time: startsAt,
        end_time: startsAt + 3600,
      });
      const viewers = await browser.newContext();
      const watch = await viewers.newPage();
      const channelPage = await viewers.newPage();
      await watch.goto(`${APP_URL}/channel/${scheduled.url_slug}`);
      await channelPage.goto(`${APP_URL}/channel/${channel.slug}`);
      await expectShown(watch, 'upcoming', 'Upcoming');
      await expectShown(channelPage, 'upcoming', 'Upcoming');
      await expect(channelPage.getByText('No broadcast yet.')).toBeVisible();

      // The host arrives early: people in the room are not a broadcast, the pages still say upcoming.
      const tara = await joinRoom(browser, scheduled.url_slug, { account: host });
      try {
        await inCall(tara);
        await channelPage.reload();
        await expectShown(channelPage, 'upcoming', 'Upcoming');

        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: scheduled.url_slug,
          destinations: '[]',
          record: 1,
        });
        expect(started.httpStatus).toBe(200);
        // Both pages were open before: they follow without a reload.
        await expectShown(watch, 'live', 'Live now');
        await expectShown(channelPage, 'live', 'Live now');
        await expect(watch.getByTestId('live-video')).toBeVisible({ timeout: 60_000 });

        const stopped = await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: scheduled.url_slug });
        expect(stopped.httpStatus).toBe(200);
        // Ended while the host is still in the room: a replay at once, listed among the past broadcasts.
        await expectShown(watch, 'replay', 'Replay');
        await expect(watch.getByTestId('replay-video')).toBeVisible({ timeout: 90_000 });
        await channelPage.reload();
        const past = channelPage.getByRole('heading', { name: 'Past broadcasts' }).locator('..');
        await expect(past.getByRole('link', { name: 'Truth Hour' })).toBeVisible();
        await expect(past).toContainText('Replay');
        await expect(channelPage.getByText('No broadcast yet.')).toHaveCount(0);
      } finally {
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: scheduled.url_slug });
        await leave(tara);
      }
      // The host left: the card does not flip back to "Upcoming · Starting now…".
      for (const page of [watch, channelPage]) {
        await page.reload();
        await expectShown(page, 'replay', 'Replay');
      }
      // Look at it: both pages in light, dark and Arabic (right to left), kept with the test's results.
      for (const [name, path] of [
        ['watch', `/channel/${scheduled.url_slug}`],
        ['channel', `/channel/${channel.slug}`],
      ] as const) {
        for (const look of ['light', 'dark', 'ar'] as const) {
          // The theme is a stored preference (dark by default); the language is chosen by the address.
          await watch.evaluate((theme) => localStorage.setItem('theme', theme), look === 'dark' ? 'dark' : 'light');
          await watch.goto(`${APP_URL}${path}?lng=${look === 'ar' ? 'ar' : 'en'}`);
          await expect(watch.getByRole('region').first()).toBeVisible();
          if (look === 'ar') await expect(watch.locator('html')).toHaveAttribute('dir', 'rtl');
          const file = test.info().outputPath(`${name}-${look}.png`);
          await watch.screenshot({ path: file, fullPage: true });
          await test.info().attach(`${name}-${look}`, { path: file, contentType: 'image/png' });
        }
      }
      await viewers.close();
    },
  );
});
