import { expect, test } from './fixtures';
import { createMeeting, expectDecodingFrom, expectFramesGrowing, inCall, joinRoom, leave } from './support/room';

const CUT_MS = 40_000;

// Real Janus, real media, two browsers: a network cut longer than the old 35-s empty grace (ADR 032).
test.describe('a call that survives the network', () => {
  test.describe.configure({ timeout: 300_000 });

  test('someone cut off for 40 s comes back into the call by themselves', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Steady Hanna' });
    const meeting = await createMeeting(host, { isSchedule: 0 });
    const hanna = await joinRoom(browser, meeting.slug, { account: host });
    await inCall(hanna);
    const rita = await joinRoom(browser, meeting.slug, { name: 'Rita Roaming' });
    await inCall(rita);
    await expectDecodingFrom(rita.page, 1);
    await expectDecodingFrom(hanna.page, 1);

    const cutAt = Date.now();
    await rita.context.setOffline(true);
    // The one cut off is told, with the time their place is kept and a way to rejoin at once.
    const banner = rita.page.getByRole('status').filter({ hasText: 'Connection lost — reconnecting' });
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner.getByRole('button', { name: 'Rejoin' })).toBeVisible();
    const countdown = banner.locator('[data-countdown]');
    const secondsLeft = async () => Number(await countdown.getAttribute('data-countdown'));
    const first = await secondsLeft();
    expect(first).toBeGreaterThan(60);
    await expect(countdown).toHaveText(/Your place in the meeting is kept for \d:\d\d/);
    await expect.poll(secondsLeft, { timeout: 10_000 }).toBeLessThan(first);
    // The other sees them reconnecting on their tile, not gone.
    const ritaTile = hanna.page.getByRole('figure', { name: /^Rita Roaming/ });
    await expect(ritaTile.getByRole('status')).toHaveText('Reconnecting…', { timeout: 30_000 });

    await rita.page.waitForTimeout(Math.max(0, CUT_MS - (Date.now() - cutAt)));
    await expect(ritaTile).toBeVisible();
    await rita.context.setOffline(false);

    // Back without a click: the banner goes, the tile is plain again, video flows both ways.
    await expect(banner).toBeHidden({ timeout: 30_000 });
    await expect(ritaTile.getByRole('status')).toHaveCount(0, { timeout: 30_000 });
    await expectFramesGrowing(rita.page, 60_000);
    await expectFramesGrowing(hanna.page, 60_000);
    await expect(rita.page.getByRole('button', { name: 'Join meeting' })).toHaveCount(0);
    await expect(rita.page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
    await leave(hanna, rita);
  });
});
