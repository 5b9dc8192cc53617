import { expect, test } from './fixtures';
import {
  createMeeting,
  expectDecodingFrom,
  expectFramesGrowing,
  inCall,
  joinRoom,
  killJanus,
  leave,
} from './support/room';

const SLOW = { timeout: 30_000 };

// Real Janus, real media: each test runs its participants in their own browser contexts with the fake camera.
test.describe('meeting room', () => {
  // Several browsers encoding and decoding video on two shared cores: joins take seconds, not milliseconds.
  // The tests tagged @under-load run at the end with a CPU hog beside them (playwright.config.ts); the one
  // that restarts Janus is among them so that no other call loses its media server meanwhile.
  test.describe.configure({ timeout: 420_000 });
  test('two people see each other, chat, and share a screen', { tag: '@under-load' }, async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Hanna Host' });
    const meeting = await createMeeting(host);
    const hanna = await joinRoom(browser, meeting.slug, { account: host });
    await inCall(hanna);
    const gus = await joinRoom(browser, meeting.slug, { name: 'Gus Guest' });
    await inCall(gus);
    await expectDecodingFrom(hanna.page, 1);
    await expectDecodingFrom(gus.page, 1);
    await expect(hanna.page.getByRole('figure', { name: /Gus Guest/ })).toBeVisible(SLOW);

    await gus.page.keyboard.press('c');
    await gus.page.getByLabel('Message').fill('hello <b>there</b> https://example.com/x');
    await gus.page.getByRole('button', { name: 'Send', exact: true }).click();
    await hanna.page.getByRole('button', { name: 'Chat' }).click();
    const message = hanna.page.getByRole('region', { name: 'Chat' }).getByText('hello <b>there</b>', { exact: false });
    await expect(message).toBeVisible(SLOW);
    await expect(hanna.page.getByRole('link', { name: 'https://example.com/x' })).toHaveAttribute('rel', /noopener/);

    await gus.page.getByRole('button', { name: 'Share screen' }).click();
    await expect(hanna.page.locator('figure[data-kind="screen"]')).toBeVisible({ timeout: 20_000 });
    // The shared screen takes the stage, the cameras go into a strip.
    await expect(hanna.page.locator('[data-stage="screen"] [data-strip] figure[data-kind="camera"]')).not.toHaveCount(
      0,
    );

    // A poll: the host asks, the guest is told and votes, the host sees the result live.
    await hanna.page.getByRole('button', { name: 'Polls' }).click();
    const hostPolls = hanna.page.getByRole('region', { name: 'Polls' });
    await hostPolls.getByRole('button', { name: 'Start the poll' }).click();
    await expect(hostPolls.getByRole('alert')).toHaveText('Please enter a question.');
    await hostPolls.getByLabel('Question').fill('Lunch?');
    await hostPolls.getByLabel('Option 1').fill('Pizza');
    await hostPolls.getByLabel('Option 2').fill('pizza');
    await hostPolls.getByRole('button', { name: 'Start the poll' }).click();
    await expect(hostPolls.getByRole('alert')).toHaveText('Please enter at least two different options.');
    await hostPolls.getByLabel('Option 2').fill('Soup');
    await hostPolls.getByRole('button', { name: 'Start the poll' }).click();
    await expect(gus.page.getByText('Hanna Host started a poll: Lunch?')).toBeVisible(SLOW);
    await expect(gus.page.getByRole('button', { name: 'Polls' })).toContainText('1');
    await gus.page.getByRole('button', { name: 'Polls' }).click();
    const guestPolls = gus.page.getByRole('region', { name: 'Polls' });
    await guestPolls.getByRole('radio', { name: 'Soup' }).check();
    await guestPolls.getByRole('button', { name: 'Vote' }).click();
    await expect(guestPolls.getByText('1 · 100 %')).toBeVisible(SLOW);
    await expect(hostPolls.getByText('1 vote', { exact: false })).toBeVisible(SLOW);
    await hostPolls.getByRole('button', { name: 'Close the poll' }).click();
    await expect(guestPolls.getByText(/Closed/)).toBeVisible(SLOW);
    await expect(guestPolls.getByRole('radio', { name: 'Soup' })).toBeDisabled();
    await leave(hanna, gus);
  });

  test('three people all see each other', { tag: '@under-load' }, async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Trio Host' });
    const meeting = await createMeeting(host);
    const people = await Promise.all([
      joinRoom(browser, meeting.slug, { account: host }),
      joinRoom(browser, meeting.slug, { name: 'Second' }),
      joinRoom(browser, meeting.slug, { name: 'Third' }),
    ]);
    await Promise.all(people.map((person) => inCall(person)));
    await Promise.all(people.map((person) => expectDecodingFrom(person.page, 2, 90_000)));
    await leave(...people);
  });

  test('asks for the password unless the link carries the right one', async ({ browser, signUp }) => {
    const host = await signUp();
    const meeting = await createMeeting(host, { isPrivate: 1, password: 'open sesame' });
    const wrong = await joinRoom(browser, meeting.slug, { name: 'Wrong', password: 'nope' });
    await expect(wrong.page.getByText('The meeting password is incorrect.')).toBeVisible(SLOW);
    const linked = await joinRoom(browser, meeting.slug, { name: 'Linked', query: '?password=open%20sesame' });
    // Past the password gate, a guest of a private meeting waits for the host.
    await expect(linked.page.getByText('Waiting for the host')).toBeVisible({ timeout: 30_000 });
    await expect(linked.page.getByLabel('Meeting password')).toHaveCount(0, SLOW);
    await leave(wrong, linked);
  });

  test('lobby: the host admits one guest and denies another', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Lobby Host' });
    const meeting = await createMeeting(host, { isPrivate: 1 });
    const hanna = await joinRoom(browser, meeting.slug, { account: host });
    await inCall(hanna);
    const ann = await joinRoom(browser, meeting.slug, { name: 'Ann Admitted' });
    const dan = await joinRoom(browser, meeting.slug, { name: 'Dan Denied' });
    await expect(ann.page.getByText('Waiting for the host')).toBeVisible(SLOW);
    await hanna.page.getByRole('button', { name: 'Participants' }).click();
    const people = hanna.page.getByRole('region', { name: 'Participants' });
    await expect(people.getByText('Ann Admitted')).toBeVisible(SLOW);
    await people.locator('li', { hasText: 'Ann Admitted' }).getByRole('button', { name: 'Admit' }).click();
    await people.locator('li', { hasText: 'Dan Denied' }).getByRole('button', { name: 'Deny' }).click();
    await inCall(ann);
    await expect(dan.page.getByText('You were not admitted')).toBeVisible(SLOW);
    await expectDecodingFrom(ann.page, 1);
    await leave(hanna, ann, dan);
  });

  test('the host mutes everyone and removes someone', async ({ browser, signUp }) => {
    const host = await signUp({ username: 'Strict Host' });
    const meeting = await createMeeting(host);
    const hanna = await joinRoom(browser, meeting.slug, { account: host });
    await inCall(hanna);
    const bob = await joinRoom(browser, meeting.slug, { name: 'Bob' });
    const eve = await joinRoom(browser, meeting.slug, { name: 'Eve' });
    await inCall(bob);
    await inCall(eve);
    await hanna.page.getByRole('button', { name: 'Participants' }).click();
    await hanna.page.getByRole('button', { name: 'Mute everyone' }).click();
    for (const guest of [bob, eve]) {
      await expect(guest.page.getByRole('button', { name: 'Unmute microphone' })).toBeVisible(SLOW);
    }
    await expect(hanna.page.getByRole('figure', { name: /Bob.*microphone off/ })).toBeVisible(SLOW);
    await hanna.page.getByRole('button', { name: 'Remove Eve from the meeting' }).click();
    await hanna.page.getByRole('dialog', { name: 'Remove Eve?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(eve.page.getByText('You were removed')).toBeVisible(SLOW);
    await expect(hanna.page.getByRole('figure', { name: /^Eve/ })).toHaveCount(0, SLOW);
    await leave(hanna, bob, eve);
  });

  test(
    'comes back by itself after the network drops and after Janus restarts',
    { tag: '@under-load' },
    async ({ browser, signUp }) => {
      const host = await signUp({ username: 'Steady Host' });
      const meeting = await createMeeting(host);
      const hanna = await joinRoom(browser, meeting.slug, { account: host });
      await inCall(hanna);
      const rita = await joinRoom(browser, meeting.slug, { name: 'Rita Roaming' });
      await inCall(rita);
      await expectDecodingFrom(rita.page, 1);

      await rita.context.setOffline(true);
      await expect(rita.page.getByText(/reconnecting/i)).toBeVisible({ timeout: 20_000 });
      await rita.context.setOffline(false);
      await expect(rita.page.getByText(/reconnecting/i)).toBeHidden({ timeout: 30_000 });
      await expectFramesGrowing(rita.page);
      await expectFramesGrowing(hanna.page);

      await killJanus();
      await expect(rita.page.getByText(/reconnecting/i)).toBeVisible({ timeout: 20_000 });
      await expect(rita.page.getByText(/reconnecting/i)).toBeHidden({ timeout: 30_000 });
      await expectDecodingFrom(rita.page, 1);
      await expectDecodingFrom(hanna.page, 1);
      await expectFramesGrowing(hanna.page);
      await leave(hanna, rita);
    },
  );
});
