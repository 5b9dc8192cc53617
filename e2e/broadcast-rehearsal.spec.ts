import { streamingCalls } from '@meetcast/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { E2E_PORTS } from './support/ports';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
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
        const preview = panel.getByLabel('Preview of the broadcast as viewers receive it');
        await expect
          .poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoWidth), { timeout: 120_000 })
          .toBeGreaterThan(0);
        await page.waitForTimeout(3000);
        expect(receivers.custom.bytes()).toBe(0);
        // The public knows nothing of it.
        const outside = await apiPost(streamingCalls.getBroadcastViewer, { meetId: meeting.slug });
        expect(outside.body.data?.data.state).toBe('none');

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
