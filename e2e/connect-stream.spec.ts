import { peopleCalls, streamingCalls } from '@meetcast/contracts';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { callAs, uniqueSlug } from './support/people';
import { createMeeting, inCall, joinRoom, leave } from './support/room';

/**
 * The streaming UI: /connect-stream (RTMP addresses, the OAuth return address), the room's Live
 * panel, My Channel's Go live and the recordings in Recent Meetings.
 *
 * Only the first test needs nothing from the server's streaming calls. The others call
 * get-stream-connections, add-rtmp-destination, remove-stream-connection,
 * start-stream-connection, finish-stream-connection, start-broadcast, get-broadcast,
 * stop-broadcast and get-recordings, and run once those calls exist.
 */
test.describe('streaming', () => {
  test.beforeEach(() => test.slow());

  test('an answer this tab did not ask for is refused on the page, and the address is cleaned', async ({
    page,
    account,
    signIn,
  }) => {
    await signIn(page, account, '/connect-stream?code=4%2F0abc&state=not-mine');
    await expect(page.getByRole('alert')).toContainText(
      'This answer cannot be matched with a connection started in this tab.',
    );
    await expect(page).toHaveURL('/connect-stream');
  });

  test('the provider’s answer goes to the server once, with the platform that started it', async ({
    page,
    account,
    signIn,
  }) => {
    await signIn(page, account, '/');
    await page.evaluate(() => sessionStorage.setItem('meetcast.stream-connect.platform', 'youtube'));
    const finishes: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/finish-stream-connection.php')) finishes.push(request.postData() ?? '');
    });
    await page.goto('/connect-stream?error=access_denied&state=forged-state');
    // The server refuses a state it never issued, in a sentence of its own.
    const alert = page.getByRole('alert').filter({ hasText: 'The connection was not made' });
    await expect(alert).toBeVisible();
    await expect(page).toHaveURL('/connect-stream');
    expect(finishes).toHaveLength(1);
    const sent = new URLSearchParams(finishes[0]);
    expect(sent.get('platform')).toBe('youtube');
    expect(sent.get('state')).toBe('forged-state');
    expect(sent.get('error')).toBe('access_denied');
    expect(sent.get('code')).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem('meetcast.stream-connect.platform'))).toBeNull();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Custom RTMP' })).toBeVisible();
    await expect(alert).toHaveCount(0);
    expect(finishes).toHaveLength(1);
  });

  test('saves an RTMP address after checking it like the server, and removes it after asking', async ({
    page,
    account,
    signIn,
  }) => {
    await signIn(page, account, '/connect-stream');
    const rtmp = page.getByRole('region', { name: 'Custom RTMP' });
    await expect(rtmp.getByText('No RTMP destination is saved yet.')).toBeVisible();
    const form = rtmp.getByRole('form', { name: 'Add an RTMP destination' });
    await form.getByRole('button', { name: 'Save destination' }).click();
    await expect(form.getByText('Enter a name of up to 100 characters.')).toBeVisible();
    await expect(form.getByText('Enter an address that starts with rtmp:// or rtmps://.')).toBeVisible();
    await expect(form.getByText(/Paste the stream key/)).toBeVisible();

    await form.getByLabel('Name').fill('Facebook page');
    await form.getByLabel('Server address').fill('https://live-api-s.facebook.com:443/rtmp/');
    await form.getByLabel('Stream key', { exact: true }).fill('has a space');
    await form.getByRole('button', { name: 'Save destination' }).click();
    await expect(form.getByText('Enter an address that starts with rtmp:// or rtmps://.')).toBeVisible();
    await expect(form.getByText(/Paste the stream key/)).toBeVisible();

    await form.getByLabel('Server address').fill('rtmps://live-api-s.facebook.com:443/rtmp/');
    const key = form.getByLabel('Stream key', { exact: true });
    await key.fill('FB-1234-abcd');
    await expect(key).toHaveAttribute('type', 'password');
    await form.getByRole('button', { name: 'Show stream key' }).click();
    await expect(key).toHaveAttribute('type', 'text');
    await form.getByRole('button', { name: 'Save destination' }).click();

    const saved = rtmp.getByRole('list', { name: 'Saved RTMP destinations' });
    await expect(saved.getByText('Facebook page')).toBeVisible();
    // Nothing has answered there yet: it says so rather than "Connected".
    await expect(saved.getByText('Saved, not tried yet', { exact: true })).toBeVisible();
    await expect(form.getByLabel('Name')).toHaveValue('');
    await expect(page.getByText('FB-1234-abcd')).toHaveCount(0);

    await saved.getByRole('button', { name: 'Remove Facebook page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this RTMP destination?' });
    await dialog.getByRole('button', { name: 'Keep' }).click();
    await expect(saved.getByText('Facebook page')).toBeVisible();
    await saved.getByRole('button', { name: 'Remove Facebook page' }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(rtmp.getByText('No RTMP destination is saved yet.')).toBeVisible();
  });

  test('My Channel: Go live on a scheduled broadcast opens the destination picker', async ({
    page,
    account,
    signIn,
  }) => {
    const channel = await callAs(account, peopleCalls.createChannel, {
      name: 'Ana cooks',
      slug: uniqueSlug('ana'),
    });
    const start = Math.floor(Date.now() / 1000) + 3600;
    await callAs(account, peopleCalls.scheduleBroadcast, {
      id: channel.id,
      name: 'Pasta night',
      start_time: start,
      end_time: start + 3600,
    });
    await callAs(account, streamingCalls.addRtmpDestination, {
      name: 'Restream',
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: 'restream-key',
    });

    await signIn(page, account, '/my-channel');
    await page.getByRole('button', { name: 'Go live: Pasta night' }).click();
    const dialog = page.getByRole('dialog', { name: 'Go live: Pasta night' });
    const goLive = dialog.getByRole('button', { name: 'Go live' });
    await expect(goLive).toBeDisabled();
    await dialog.getByRole('checkbox', { name: /Restream/ }).check();
    await expect(goLive).toBeEnabled();
    await dialog.getByRole('checkbox', { name: /Restream/ }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Record this broadcast' }).check();
    await expect(dialog.getByRole('button', { name: 'Start recording' })).toBeEnabled();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Recordings' })).toBeVisible();
  });

  test(
    'the host records a meeting from the Live panel; everyone sees LIVE; the recording plays in Recent Meetings',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      test.setTimeout(240_000);
      const host = await signUp({ username: 'Rita Recorder' });
      const meeting = await createMeeting(host);
      const rita = await joinRoom(browser, meeting.slug, { account: host });
      try {
        await inCall(rita);
        const guest = await joinRoom(browser, meeting.slug, { name: 'Gina Guest' });
        await inCall(guest);
        // Only hosts and co-hosts get the Live panel.
        await expect(guest.page.getByRole('button', { name: 'Go live' })).toHaveCount(0);

        await rita.page.getByRole('button', { name: 'Go live' }).click();
        const panel = rita.page.getByRole('region', { name: 'Live', exact: true });
        await expect(panel.getByText('You have not connected YouTube, Twitch or an RTMP address yet.')).toBeVisible();
        await expect(panel.getByRole('link', { name: /Set up streaming/ })).toHaveAttribute('target', '_blank');
        await panel.getByRole('checkbox', { name: 'Record this broadcast' }).check();
        await panel.getByRole('button', { name: 'Start recording' }).click();
        await expect(panel.getByText('Recording only: nothing is streamed to a platform.')).toBeVisible();

        await expect(guest.page.getByRole('status', { name: 'This meeting is being broadcast live' })).toBeVisible({
          timeout: 60_000,
        });
        await expect(rita.page.getByRole('status', { name: 'This meeting is being broadcast live' })).toBeVisible();
        // Let a few seconds be recorded.
        await rita.page.waitForTimeout(5000);

        await panel.getByRole('button', { name: 'Stop broadcast' }).click();
        await rita.page
          .getByRole('dialog', { name: 'Stop the broadcast?' })
          .getByRole('button', { name: 'Stop broadcast' })
          .click();
        await expect(panel.getByText('Ended', { exact: true })).toBeVisible({ timeout: 60_000 });
        await expect(guest.page.getByRole('status', { name: 'This meeting is being broadcast live' })).toHaveCount(0, {
          timeout: 15_000,
        });
        await expect(panel.getByRole('link', { name: /Watch the recording/ })).toBeVisible({ timeout: 120_000 });
        await leave(guest);

        const page = rita.page;
        // My Channel lists the account's recordings once there is a channel.
        await callAs(host, peopleCalls.createChannel, { name: 'Rita records', slug: uniqueSlug('rita') });
        await page.goto('/my-channel');
        await page.getByRole('button', { name: `Play the recording of ${meeting.name}` }).click();
        const dialog = page.getByRole('dialog', { name: /Recording:/ });
        const video = dialog.locator('video');
        await expect(video).toHaveAttribute('controls', '');
        const src = await video.getAttribute('src');
        expect(src).toBeTruthy();
        await expect(dialog.getByRole('link', { name: 'Download' })).toHaveAttribute('href', src ?? '');
        // Seeking needs byte ranges: the player asks for them and the server answers 206.
        const ranged = await page.request.get(src ?? '', { headers: { range: 'bytes=0-99' } });
        expect(ranged.status()).toBe(206);
        await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(2);
        await leave(rita);
      } finally {
        // A failed step must not leave the composer busy for the next test (or this one's retry).
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });
      }
    },
  );
});
