import { peopleCalls, streamingCalls } from '@meetcast/contracts';
import { expect, test } from './fixtures';
import type { BroadcastSeed } from './support/broadcast-seed';
import { FAKE_PNG, callAs, realPng, uniqueSlug } from './support/people';
import { HOOK_URL } from './support/ports';

/** A broadcast on air or recorded, straight into the e2e server's database (support/broadcast-seed.ts). */
async function seedBroadcast(seed: BroadcastSeed) {
  const response = await fetch(`${HOOK_URL}/broadcast-seed`, { method: 'POST', body: JSON.stringify(seed) });
  if (!response.ok) throw new Error(`broadcast seed failed: ${await response.text()}`);
}

test.describe('channels', () => {
  // Several server round trips each, on a machine that may be busy.
  test.beforeEach(() => test.slow());
  test('creates a channel with validation, then schedules a broadcast from My channel', async ({
    page,
    account,
    signUp,
    signIn,
  }) => {
    const other = await signUp({ username: 'Taken Tom' });
    const takenSlug = uniqueSlug('taken');
    await callAs(other, peopleCalls.createChannel, { name: 'Tom TV', slug: takenSlug });

    await signIn(page, account, '/my-channel');
    await expect(page.getByRole('heading', { name: 'You have no channel yet' })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Create a channel' }).click();
    await expect(page).toHaveURL('/create-channel');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await expect(page.getByText('Enter a name of 2 to 60 characters.')).toBeVisible();
    await expect(page.getByText('Use 3 to 64 lower-case letters, digits and hyphens.')).toBeVisible();

    await page.getByLabel('Channel name').fill('Cooking with Ana');
    await page.getByLabel('Channel address').fill(takenSlug);
    await expect(page.getByText('This channel address is already taken.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create channel' })).toBeDisabled();
    const slug = uniqueSlug('cooking');
    await page.getByLabel('Channel address').fill(slug);
    await expect(page.getByText('This channel address is already taken.')).toHaveCount(0);
    await page.getByLabel('Description').fill('Weekly live cooking.');
    await page.getByLabel('Category').selectOption('lifestyle');
    await page.getByLabel('Link 1 label').fill('Recipes');
    await page.getByLabel('Link 1 address').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await expect(
      page.getByText('Give each link a label (up to 40 characters) and an address starting with https://.'),
    ).toBeVisible();
    await page.getByLabel('Link 1 address').fill('https://recipes.example.com');
    await page.getByRole('button', { name: 'Create channel' }).click();

    await expect(page).toHaveURL('/my-channel');
    await expect(page.getByRole('heading', { name: 'Cooking with Ana', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Recipes' })).toHaveAttribute('href', 'https://recipes.example.com');
    await expect(page.getByText('No broadcast is scheduled.')).toBeVisible();

    const rtmp = await callAs(account, streamingCalls.addRtmpDestination, {
      name: 'Kitchen RTMP',
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: 'kitchen-key',
    });
    await callAs(account, streamingCalls.addRtmpDestination, {
      name: 'Garden RTMP',
      url: 'rtmp://127.0.0.1:1935/live',
      stream_key: 'garden-key',
    });
    await page.getByRole('button', { name: 'Schedule a broadcast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a broadcast' });
    // The same picker as meetings (`Y-m-d H:i`); the browser and the account run on UTC here.
    await expect(dialog.getByLabel('Starts')).toHaveValue(/^\d{4}-\d{2}-\d{2} \d{2}:00$/);
    await dialog.getByLabel('Ends').fill('2020-01-01 10:00');
    await dialog.getByLabel('Ends').press('Enter');
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await expect(dialog.getByText('Give the broadcast a title.')).toBeVisible();
    await expect(dialog.getByText('The end must be after the start.')).toBeVisible();
    await dialog.getByLabel('Title').fill('Pasta night');
    const start = new Date(Date.now() + 2 * 3600_000);
    const end = new Date(start.getTime() + 3600_000);
    const picker = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');
    for (const [label, date] of [['Starts', start] as const, ['Ends', end] as const]) {
      await dialog.getByLabel(label).fill(picker(date));
      await dialog.getByLabel(label).press('Enter');
    }
    // It may go live by itself at its time: to the chosen connection, recorded.
    const plan = dialog.getByRole('region', { name: 'Go live by itself' });
    await plan.getByRole('checkbox', { name: /Kitchen RTMP/ }).check();
    await plan.getByRole('checkbox', { name: 'Record this broadcast' }).check();
    const request = page.waitForRequest((candidate) => candidate.url().endsWith('/api/schedule-broadcast.php'));
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    // A list goes as a JSON body, not as JSON text inside a form field.
    const sent = (await request).postDataJSON() as { destinations: unknown; record: unknown };
    expect(sent.destinations).toEqual([{ connection_id: rtmp.data.id }]);
    expect(sent.record).toBe(1);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('link', { name: 'Pasta night' })).toBeVisible();

    // My Channel shows the plan; its host changes it, then removes it.
    const upcoming = page.getByRole('listitem').filter({ hasText: 'Pasta night' });
    await expect(upcoming.getByText('Goes live by itself to Kitchen RTMP. It is recorded.')).toBeVisible();
    await upcoming.getByRole('button', { name: 'Change plan' }).click();
    const change = page.getByRole('dialog', { name: 'Go live by itself' });
    await expect(change.getByRole('checkbox', { name: /Kitchen RTMP/ })).toBeChecked();
    await expect(change.getByRole('checkbox', { name: 'Record this broadcast' })).toBeChecked();
    await change.getByRole('checkbox', { name: /Garden RTMP/ }).check();
    await change.getByRole('checkbox', { name: 'Record this broadcast' }).uncheck();
    await change.getByRole('button', { name: 'Save plan' }).click();
    await expect(change).toBeHidden();
    await expect(
      upcoming.getByText(/^Goes live by itself to (Kitchen|Garden) RTMP and (Kitchen|Garden) RTMP\.$/),
    ).toBeVisible();
    await upcoming.getByRole('button', { name: 'Remove plan' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the go-live plan?' })
      .getByRole('button', { name: 'Remove plan' })
      .click();
    await expect(upcoming.getByRole('button', { name: 'Plan going live' })).toBeVisible();
    await expect(upcoming.getByText(/Goes live by itself/)).toHaveCount(0);
  });

  test('edits pictures: a real image is stored, a fake .png is refused; others get a 403 page', async ({
    page,
    account,
    signUp,
    signIn,
  }) => {
    const channel = await callAs(account, peopleCalls.createChannel, {
      name: 'Pixel Studio',
      slug: uniqueSlug('pixel'),
    });
    await signIn(page, account, `/edit-channel/${channel.id}`);
    await expect(page.getByRole('heading', { name: 'Edit Pixel Studio' })).toBeVisible({ timeout: 30_000 });

    await page.getByLabel('Upload a picture').setInputFiles(FAKE_PNG);
    await expect(page.getByText('This file is not a JPEG, PNG or WebP picture. Choose another one.')).toBeVisible();
    await page
      .getByLabel('Upload a cover')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await realPng() });
    await expect(page.getByText('The picture was saved.')).toBeVisible();
    const cover = page.getByRole('img', { name: 'Current cover' });
    await expect(cover).toHaveAttribute('src', /\/uploads\/covers\/[a-f0-9]{32}\.webp$/);
    const src = (await cover.getAttribute('src')) ?? '';
    expect((await page.request.get(src)).headers()['content-type']).toBe('image/webp');

    await page.getByLabel('Description').fill('Pictures of everything.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(`/channels/${channel.slug}`);
    await expect(page.getByText('Pictures of everything.')).toBeVisible();

    const intruder = await signUp({ username: 'Ivan Intruder' });
    await page.context().clearCookies();
    await signIn(page, intruder, `/edit-channel/${channel.id}`);
    await expect(page.getByRole('heading', { name: 'You cannot edit this channel' })).toBeVisible();
    await expect(page.getByText('Only the owner of this channel or an administrator can change it.')).toBeVisible();
  });

  test('browses and follows channels, and shows public pages without signing in', async ({
    page,
    account,
    signUp,
    signIn,
  }) => {
    const owner = await signUp({ username: 'Olga Owner' });
    const slug = uniqueSlug('astro');
    const channel = await callAs(owner, peopleCalls.createChannel, {
      name: `Astronomy ${slug}`,
      slug,
      description: 'Looking up at night.',
      category: 'science',
    });
    const start = Math.floor(Date.now() / 1000) + 2 * 86_400;
    const broadcast = await callAs(owner, peopleCalls.scheduleBroadcast, {
      id: channel.id,
      name: 'Meteor shower',
      start_time: start,
      end_time: start + 3600,
    });

    await signIn(page, account, '/channels');
    await page.getByRole('searchbox', { name: 'Search channels' }).fill(slug);
    const card = page.getByRole('listitem').filter({ hasText: `Astronomy ${slug}` });
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: 'Follow' }).click();
    await expect(card.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('Only channels I follow').check();
    await expect(page.getByRole('listitem').filter({ hasText: `Astronomy ${slug}` })).toBeVisible();
    await card.getByRole('link', { name: `Astronomy ${slug}` }).click();
    await expect(page).toHaveURL(`/channels/${slug}`);
    await expect(page.getByText('Followers: 1')).toBeVisible();

    await page.context().clearCookies();
    await page.goto(`/channel/${slug}`);
    await expect(page.getByRole('heading', { name: `Astronomy ${slug}`, level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    await expect(page.getByRole('timer', { name: 'Time until the broadcast starts' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Public link' })).toHaveValue(new RegExp(`/channel/${slug}$`));
    await page.goto(`/channel/${broadcast.url_slug}`);
    await expect(page.getByRole('heading', { name: 'Meteor shower' })).toBeVisible();
    await page.goto('/channel/no-such-channel-here');
    await expect(page.getByRole('heading', { name: 'Not available' })).toBeVisible();
    await expect(page.getByText('This channel or broadcast is not available.')).toBeVisible();
  });

  test('signed out, Follow on a public channel page signs in and comes back followed', async ({ page, signUp }) => {
    const owner = await signUp({ username: 'Felix Owner' });
    const visitor = await signUp({ username: 'Vera Visitor' });
    const slug = uniqueSlug('follow');
    await callAs(owner, peopleCalls.createChannel, { name: `Birds ${slug}`, slug, category: 'science' });

    await page.goto(`/channel/${slug}`);
    await page.getByRole('link', { name: 'Follow' }).click();
    await expect(page).toHaveURL(/\/login\?next=/);
    await page.getByLabel('E-mail address').fill(visitor.email);
    await page.getByLabel('Password', { exact: true }).fill(visitor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await expect(page).toHaveURL(`/channel/${slug}`);
    await expect(page.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Followers: 1')).toBeVisible();
    // A crafted return address leaves the site nowhere: it goes home instead.
    await page.context().clearCookies();
    await page.goto(`/login?next=${encodeURIComponent('//evil.example.com/')}`);
    await page.getByLabel('E-mail address').fill(visitor.email);
    await page.getByLabel('Password', { exact: true }).fill(visitor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL('/');
  });

  test('the next broadcast counts down with Notify me under the live player and the replay; the replay has chapters', async ({
    page,
    signUp,
  }) => {
    test.setTimeout(120_000);
    const owner = await signUp({ username: 'Nora Owner' });
    const visitor = await signUp({ username: 'Nils Visitor' });
    const slug = uniqueSlug('next');
    const channel = await callAs(owner, peopleCalls.createChannel, {
      name: `Skywatch ${slug}`,
      slug,
      category: 'science',
    });
    const soon = Math.floor(Date.now() / 1000) + 600;
    const show = await callAs(owner, peopleCalls.scheduleBroadcast, {
      id: channel.id,
      name: 'Tonight live',
      start_time: soon,
      end_time: soon + 3600,
    });
    const later = Math.floor(Date.now() / 1000) + 3 * 86_400 + 5000;
    const next = await callAs(owner, peopleCalls.scheduleBroadcast, {
      id: channel.id,
      name: 'Eclipse special',
      start_time: later,
      end_time: later + 3600,
    });
    await seedBroadcast({ kind: 'live', meetingSlug: show.url_slug });

    // Live: the player first, the next broadcast with its countdown and Notify me right under it.
    await page.addInitScript(() => localStorage.setItem('theme', 'light'));
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`/channel/${slug}`);
    await expect(page.getByRole('region', { name: 'Live broadcast: Tonight live' })).toBeVisible();
    const nextCard = page.getByTestId('next-broadcast');
    await expect(nextCard.getByRole('heading', { name: 'Next broadcast' })).toBeVisible();
    await expect(nextCard.getByRole('link', { name: 'Eclipse special' })).toBeVisible();
    await expect(nextCard.getByRole('timer', { name: 'Time until the broadcast starts' })).toContainText('03');
    const playerBox = (await page.getByRole('region', { name: 'Live broadcast: Tonight live' }).boundingBox())!;
    expect((await nextCard.boundingBox())!.y).toBeGreaterThan(playerBox.y + playerBox.height - 1);
    await page.screenshot({ path: '/tmp/channel-live-next-light.png', fullPage: true });

    // Signed out, Notify me signs in and comes back with it on; it stays on.
    await nextCard.getByRole('link', { name: 'Notify me' }).click();
    await expect(page).toHaveURL(/\/login\?next=/);
    await page.getByLabel('E-mail address').fill(visitor.email);
    await page.getByLabel('Password', { exact: true }).fill(visitor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`/channel/${slug}`);
    const notify = page.getByTestId('next-broadcast').getByRole('button', { name: 'You will be notified' });
    await expect(notify).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(notify).toHaveAttribute('aria-pressed', 'true');
    expect(await callAs(visitor, streamingCalls.getBroadcastReminder, { meetId: next.url_slug })).toEqual({
      data: { is_set: true, is_sent: false },
    });

    // The show ends with a recording whose chapters were stored while live.
    await seedBroadcast({
      kind: 'replay',
      meetingSlug: show.url_slug,
      seconds: 30,
      chapters: [
        { kind: 'layout', layout: 'spotlight', offset: 8 },
        { kind: 'screen_share_start', offset: 15 },
        { kind: 'screen_share_stop', offset: 22 },
      ],
    });
    await page.goto(`/channel/${show.url_slug}`);
    await expect(page.getByTestId('replay-video')).toBeVisible();
    const chapters = page.getByRole('navigation', { name: 'Chapters' });
    await expect(chapters.getByRole('button')).toHaveText([
      'Start0:00',
      'Spotlight0:08',
      'Screen share0:15',
      'Screen share ended0:22',
    ]);
    const screenShare = chapters.getByRole('button').filter({ hasText: '0:15' });
    await screenShare.click();
    await expect
      .poll(() => page.getByTestId('replay-video').evaluate((video: HTMLVideoElement) => video.currentTime))
      .toBeGreaterThanOrEqual(15);
    await expect(screenShare).toHaveAttribute('aria-current', 'true');
    await expect(
      page.getByTestId('next-broadcast').getByRole('button', { name: 'You will be notified' }),
    ).toBeVisible();
    await page.getByTestId('replay-video').evaluate((video: HTMLVideoElement) => video.pause());
    await page.screenshot({ path: '/tmp/channel-replay-light.png', fullPage: true });
    // With nothing on air, the stage is the next broadcast itself: its countdown carries Notify me.
    await page.goto(`/channel/${slug}`);
    const stage = page.getByRole('region', { name: 'Now on this channel' });
    await expect(stage.getByRole('button', { name: 'You will be notified' })).toBeVisible();
    await page.screenshot({ path: '/tmp/channel-next-light.png', fullPage: true });

    // Arabic: right to left, every label translated.
    await page.goto(`/channel/${show.url_slug}?lng=ar`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('navigation', { name: 'الفصول' }).getByRole('button')).toHaveCount(4);
    await expect(page.getByTestId('next-broadcast').getByRole('button', { name: 'سيتم إخبارك' })).toBeVisible();
    await page.screenshot({ path: '/tmp/channel-replay-ar.png', fullPage: true });

    // Taken back, it is off.
    await page.goto(`/channel/${slug}?lng=en`);
    await stage.getByRole('button', { name: 'You will be notified' }).click();
    await expect(stage.getByRole('button', { name: 'Notify me' })).toHaveAttribute('aria-pressed', 'false');
  });
});
