import { streamingCalls } from '@meetcast/contracts';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from '@playwright/test';
import { expect, test, useSessionCookie } from './fixtures';
import { apiPost } from './support/api';
import { createMeeting, inCall, joinRoom, leave } from './support/room';

const VARIANTS = [
  { theme: 'light', language: 'en', title: 'Live chat' },
  { theme: 'dark', language: 'en', title: 'Live chat' },
  { theme: 'light', language: 'ar', title: 'الدردشة المباشرة' },
] as const;

/** The channel page with its chat as a guest sees it at 390 px: what overflows, what axe finds serious. */
async function phoneFindings(browser: Browser, slug: string, variant: (typeof VARIANTS)[number]) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(({ theme, language }) => {
      localStorage.setItem('theme', theme);
      localStorage.setItem('i18nextLng', language);
    }, variant);
    await page.goto(`/channel/${slug}`);
    const chat = page.getByRole('region', { name: variant.title });
    // A fresh page's first load beside the running composer, as for Vera's above.
    await expect(chat.getByText('Still here')).toBeVisible({ timeout: 45_000 });
    await expect(page.locator('html')).toHaveAttribute('dir', variant.language === 'ar' ? 'rtl' : 'ltr');
    const overflow = await page.evaluate(() => {
      const found: string[] = [];
      if (document.documentElement.scrollWidth > 390) found.push(`document ${document.documentElement.scrollWidth}px`);
      const section = document.querySelector('[data-viewer-chat]');
      if (section && section.scrollWidth > section.clientWidth + 1) found.push(`chat ${section.scrollWidth}px`);
      return found;
    });
    const results = await new AxeBuilder({ page })
      .include('[data-viewer-chat]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    const axe = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    return { overflow, axe };
  } finally {
    await context.close();
  }
}

// A broadcast made live through the real call (recording only: the composer encodes, no platform is
// needed), its public page for the audience, and its hosts in the meeting room.
test.describe('viewer chat', () => {
  // The chat, the ban and then four phone-width variants with axe, beside a running composer: on a slow
  // two-core machine (2026-11-27) the test reached the last variant at four minutes.
  test.describe.configure({ timeout: 360_000 });

  test(
    'a guest and a signed-in viewer chat on the channel page, the host sees both in the room and bans the guest',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const host = await signUp({ username: 'Hana Host' });
      const vera = await signUp({ username: 'Vera Viewer' });
      const meeting = await createMeeting(host);
      const hana = await joinRoom(browser, meeting.slug, { account: host });
      const guestContext = await browser.newContext();
      const veraContext = await browser.newContext();
      await useSessionCookie(veraContext, vera.token);
      try {
        await inCall(hana);
        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: meeting.slug,
          record: 1,
        });
        expect(started.httpStatus).toBe(200);

        // A guest names themselves and posts; the link is a plain, user-content link, never HTML.
        const guest = await guestContext.newPage();
        await guest.goto(`/channel/${meeting.slug}`);
        const guestChat = guest.getByRole('region', { name: 'Live chat' });
        await guestChat.getByLabel('Your display name').fill('Gus Guest');
        await guestChat
          .getByLabel('Message', { exact: true })
          .fill('Hello from a guest <b>bold</b> https://example.com/page');
        await guestChat.getByRole('button', { name: 'Send' }).click();
        const guestLine = guestChat.getByRole('listitem').filter({ hasText: 'Hello from a guest' });
        await expect(guestLine).toContainText('<b>bold</b>');
        await expect(guestLine.locator('b')).toHaveCount(0);
        await expect(guestLine.getByRole('link', { name: 'https://example.com/page' })).toHaveAttribute(
          'rel',
          'noopener noreferrer nofollow ugc',
        );

        // A signed-in viewer chats under their account's name (no name field), and sees the guest live.
        const viewer = await veraContext.newPage();
        await viewer.goto(`/channel/${meeting.slug}`);
        const veraChat = viewer.getByRole('region', { name: 'Live chat' });
        // The page's first load, beside a running composer and two other browsers on two busy cores.
        await expect(veraChat.getByText('Hello from a guest')).toBeVisible({ timeout: 45_000 });
        await expect(veraChat.getByLabel('Your display name')).toHaveCount(0);
        await veraChat.getByLabel('Message', { exact: true }).fill('Hi from Vera');
        await veraChat.getByRole('button', { name: 'Send' }).click();
        await expect(guestChat.getByRole('listitem').filter({ hasText: 'Hi from Vera' })).toContainText('Vera Viewer');

        // The host sees both in the room, in the Viewers tab beside the room chat.
        const room = hana.page;
        await room.getByRole('button', { name: /^Chat/ }).click();
        await room.getByRole('tab', { name: 'Viewers' }).click();
        const hostChat = room.getByRole('region', { name: 'Live chat' });
        await expect(hostChat.getByText('Hello from a guest')).toBeVisible();
        await expect(hostChat.getByText('Hi from Vera')).toBeVisible();

        // The host bans the guest; the guest is told at once and cannot post again, even after a reload.
        await hostChat.getByRole('button', { name: 'Actions for the message from Gus Guest' }).click();
        await hostChat.getByRole('button', { name: 'Ban', exact: true }).click();
        await expect(guestChat.getByText('You have been banned from this chat.')).toBeVisible();
        await guest.reload();
        await expect(guestChat.getByText('You have been banned from this chat.')).toBeVisible();
        await expect(guestChat.getByLabel('Message', { exact: true })).toHaveCount(0);
        const viewerToken = await guest.evaluate(() => localStorage.getItem('meetcastViewerChatToken'));
        const again = await apiPost(streamingCalls.postViewerChat, {
          meetId: meeting.slug,
          viewer_token: viewerToken ?? '',
          display_name: 'Another Name',
          text: 'let me back in',
        });
        expect(again.httpStatus).toBe(403);
        // Vera still chats.
        await veraChat.getByLabel('Message', { exact: true }).fill('Still here');
        await veraChat.getByRole('button', { name: 'Send' }).click();
        await expect(hostChat.getByText('Still here')).toBeVisible();

        // On a phone, in light and dark, and in Arabic (right to left): no overflow, no serious axe finding.
        for (const variant of VARIANTS) {
          await test.step(`390 px, ${variant.theme}, ${variant.language}`, async () => {
            expect(await phoneFindings(browser, meeting.slug, variant)).toEqual({ overflow: [], axe: [] });
          });
        }
      } finally {
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });
        await guestContext.close();
        await veraContext.close();
        await leave(hana);
      }
    },
  );
});
