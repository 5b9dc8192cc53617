import { streamingCalls } from '@meetcast/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { connectPlatform, sayOnPlatform, startReceivers } from './support/streaming';

// Real composer and receivers; the chat comes from the YouTube and Twitch stand-ins (ADR 040).
test.describe('platform chat in the studio', () => {
  test.describe.configure({ timeout: 300_000 });

  test(
    'YouTube and Twitch messages appear in the Live panel with their marks, and one goes on the stream as a card',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const receivers = startReceivers(mkdtempSync(join(tmpdir(), 'meetcast-chat-')));
      const host = await signUp({ username: 'Chatty Host' });
      const meeting = await createMeeting(host);
      const room = await joinRoom(browser, meeting.slug, { account: host });
      try {
        await inCall(room);
        const setup = await room.context.newPage();
        await connectPlatform(setup, 'YouTube');
        await expect(setup.getByText(/YouTube connected/)).toBeVisible();
        await connectPlatform(setup, 'Twitch');
        await expect(setup.getByText(/Twitch connected/)).toBeVisible();
        await setup.close();

        const page = room.page;
        await page.getByRole('button', { name: 'Go live' }).click();
        const panel = page.getByRole('region', { name: 'Live' });
        for (const name of [/YouTube/, /Twitch/]) await panel.getByRole('checkbox', { name }).check();
        await panel.getByRole('button', { name: 'Go live' }).click();
        const destination = (name: string) => panel.getByRole('listitem').filter({ hasText: name });
        for (const name of ['Meetcast Test Channel', 'Meetcast_Tester']) {
          await expect(destination(name).getByText('Live', { exact: true })).toBeVisible({ timeout: 90_000 });
        }

        const chat = panel.locator('[data-studio-chat]');
        const saidAt = Date.now();
        await sayOnPlatform('youtube', 'Yuki Viewer', 'Greetings from YouTube <b>bold</b>');
        await sayOnPlatform('twitch', 'Tess Viewer', 'Hello from Twitch');
        const youtubeLine = chat.locator('[data-chat-source="youtube"]').filter({ hasText: 'Greetings from YouTube' });
        const twitchLine = chat.locator('[data-chat-source="twitch"]').filter({ hasText: 'Hello from Twitch' });
        await expect(youtubeLine).toBeVisible({ timeout: 10_000 });
        await expect(twitchLine).toBeVisible({ timeout: 10_000 });
        console.log(`both platform messages in the studio after ${Date.now() - saidAt} ms`);
        await expect(youtubeLine.getByText('YouTube', { exact: true })).toBeAttached();
        await expect(youtubeLine).not.toContainText('<b>');

        await youtubeLine.getByRole('button', { name: "Show Yuki Viewer's message on the stream" }).click();
        await expect(chat.getByText('On the stream: Yuki Viewer')).toBeVisible();
        const broadcast = await apiPost(streamingCalls.getBroadcast, { token: host.token, meetId: meeting.slug });
        expect(broadcast.body.data?.data?.overlay.comment).toMatchObject({
          source: 'youtube',
          author_name: 'Yuki Viewer',
          text: 'Greetings from YouTube bold',
        });
        await chat.getByRole('button', { name: 'Take down' }).click();
        await expect(chat.getByText('On the stream: Yuki Viewer')).toBeHidden();
      } finally {
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });
        await leave(room);
        await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
      }
    },
  );
});
