import { accountCalls } from '@meetcast/contracts';
import { expect, test } from './fixtures';
import { apiPost, notifyUser } from './support/api';

test.describe('notifications', () => {
  test('arrive live without a reload and are cleared', async ({ signedInPage: page, account }) => {
    const bell = page.getByRole('button', { name: /^Notification/ });
    await expect(bell).toHaveAccessibleName('Notification');
    await bell.click();
    const panel = page.getByTestId('notification-panel');
    await expect(panel.getByText('Notification', { exact: true })).toBeVisible();
    await expect(panel.getByText('No data available')).toBeVisible();
    expect((await panel.boundingBox())?.width).toBe(350);
    await page.keyboard.press('Escape');

    // The server's notifier (what every feature calls) stores it and pushes it over Socket.IO.
    await notifyUser(account.user.id, 'Your meeting <b>Design review</b> starts soon');
    await notifyUser(account.user.id, 'Sam added you as a contact');
    await expect(bell).toHaveAccessibleName('Notification, 2 New');

    await bell.click();
    await expect(panel.getByText('2 New')).toBeVisible();
    await expect(panel.locator('b', { hasText: 'Design review' })).toBeVisible();
    await expect(panel.locator('[data-notification]')).toHaveCount(2);
    // Newest first.
    await expect(panel.locator('[data-notification]').first()).toContainText('Sam added you as a contact');

    await panel.getByRole('menuitem', { name: 'Clear this notification' }).first().click();
    await expect(panel.locator('[data-notification]')).toHaveCount(1);
    await expect(panel.getByText('1 New')).toBeVisible();
    await panel.getByRole('menuitem', { name: 'Clear this notification' }).click();
    await expect(panel.getByText('No data available')).toBeVisible();

    const list = await apiPost(accountCalls.getUserNotification, { token: account.token });
    expect(list.body.data?.data).toEqual([]);
  });

  test('are listed after a reload, and the panel is 300 px on small screens', async ({ page, account, signIn }) => {
    await notifyUser(account.user.id, 'Waiting for you');
    await page.setViewportSize({ width: 500, height: 800 });
    await signIn(page, account);
    await page.getByRole('button', { name: 'Notification, 1 New' }).click();
    const panel = page.getByTestId('notification-panel');
    await expect(panel.getByText('Waiting for you')).toBeVisible();
    expect((await panel.boundingBox())?.width).toBe(300);
  });

  test('one created while the live channel was still connecting is listed once it connects', async ({
    page,
    account,
    signIn,
  }) => {
    // Hold the live channel until the notification exists: its push reaches no socket.
    let release = () => {};
    const created = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/\/socket\.io\//, async (socket) => {
      await created;
      socket.connectToServer();
    });
    await signIn(page, account);
    await expect(page.getByRole('button', { name: /^Notification/ })).toHaveAccessibleName('Notification');
    await notifyUser(account.user.id, 'Sent before the socket connected');
    release();
    await expect(page.getByRole('button', { name: /^Notification/ })).toHaveAccessibleName('Notification, 1 New');
  });

  test('HTML is sanitized: no script runs, no event handler survives', async ({ signedInPage: page, account }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await notifyUser(
      account.user.id,
      'Hello <strong>friend</strong><script>window.__pwned = "script"</script>' +
        '<img src="/does-not-exist.png" onerror="window.__pwned = \'onerror\'; alert(1)">' +
        '<a href="javascript:window.__pwned=\'link\'">link</a><svg><g onload="window.__pwned=\'svg\'"></g></svg>',
    );
    await page.getByRole('button', { name: 'Notification, 1 New' }).click();
    const item = page.getByTestId('notification-panel').locator('[data-notification]');
    await expect(item.locator('strong', { hasText: 'friend' })).toBeVisible();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    const html = await item.locator('.notification-html').innerHTML();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('onload');
    expect(html).not.toContain('javascript:');
  });
});
