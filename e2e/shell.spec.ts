import { expect, test } from './fixtures';

const USER_ENTRIES = [
  'Dashboard',
  'Upcoming Meetings',
  'Recent Meetings',
  'Schedule A Meeting',
  'Instant Meeting',
  'Calendar',
  'Streaming',
  'Contacts',
  'Channels',
  'Profile',
  'Contact Us',
];

test.describe('route guard', () => {
  test('a visitor without a session is sent to /login except on public paths', async ({ page }) => {
    // Ten page loads of the whole app: on a busy two-core machine this once took more than 60 s.
    test.slow();
    await page.goto('/contacts');
    await expect(page).toHaveURL('/login');
    await page.goto('/');
    await expect(page).toHaveURL('/login');
    await page.goto('/admin/users');
    await expect(page).toHaveURL('/login');

    for (const path of ['/room/x', '/channel/x', '/channel', '/signup', '/forgot-password', '/reset-password']) {
      await page.goto(path);
      await expect(page).toHaveURL(path);
    }
    await page.goto('/room/x');
    await expect(page.getByRole('heading', { name: 'Meeting not found' })).toBeVisible();
    // Without a session even main-layout pages use the blank layout: no sidebar.
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  });

  test('a regular user on /admin paths lands on the home page', async ({ page, account, signIn }) => {
    await signIn(page, account, '/admin/users');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: `Welcome, ${account.username}` })).toBeVisible();
    await page.goto('/admin');
    await expect(page).toHaveURL('/');
  });

  test('the administrator reaches the admin area with its own sidebar', async ({ page, admin, signIn }) => {
    await signIn(page, admin, '/admin/users');
    await expect(page).toHaveURL('/admin/users');
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link')).toHaveText([
      'Meetcast',
      'Dashboard',
      'Users',
      'Meetings',
      'Channels',
      'Contacts List',
      'Events',
      'Back to User',
    ]);
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: 'Back to User' }).click();
    await expect(page).toHaveURL('/');
  });

  test('an invalid session cookie is removed and the visitor signs in again', async ({ page, context }) => {
    await context.addCookies([
      { name: 'meetcastUser', value: 'not-a-real-token', url: test.info().project.use.baseURL! },
    ]);
    await page.goto('/contacts');
    await expect(page).toHaveURL('/login');
    expect((await context.cookies()).find((cookie) => cookie.name === 'meetcastUser')).toBeUndefined();
  });

  test('unknown paths show a real 404 page', async ({ page, account, signIn }) => {
    await signIn(page, account, '/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('There is no page at /no-such-page.')).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL('/');
  });
});

test.describe('sidebar', () => {
  test('a regular user sees the entries in order, without Admin', async ({ signedInPage: page }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('listitem')).toHaveText(USER_ENTRIES);
    await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    const box = await nav.boundingBox();
    expect(box?.width).toBe(260);
    expect(box?.x).toBe(0);
  });

  test('the administrator also sees Admin, linking to /admin', async ({ adminPage: page }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('listitem')).toHaveText([...USER_ENTRIES, 'Admin']);
    await nav.getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL('/admin');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveClass(/bg-primary-50/);
  });

  test('the current entry is highlighted and the sidebar works with the keyboard', async ({ signedInPage: page }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await nav.getByRole('link', { name: 'Contacts' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/contacts');
    await expect(nav.getByRole('link', { name: 'Contacts' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: 'Contacts', exact: true })).toBeVisible();
  });

  test('Instant Meeting and Schedule A Meeting open their dialogs; focus returns on close', async ({
    signedInPage: page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const instant = nav.getByRole('button', { name: 'Instant Meeting' });
    await instant.click();
    const dialog = page.getByRole('dialog', { name: 'Enter your meeting name' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Create an instant meeting and share with participants')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Start Meeting' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(instant).toBeFocused();

    await nav.getByRole('button', { name: 'Schedule A Meeting' }).click();
    await expect(page.getByRole('dialog', { name: 'Schedule a meeting' })).toBeVisible();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('collapsing is remembered across a reload', async ({ signedInPage: page }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await page.getByRole('button', { name: 'Hide the sidebar' }).click();
    await expect(nav).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('sidebar'))).toBe('false');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Show the sidebar' })).toBeVisible();
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Show the sidebar' }).click();
    await expect(nav).toBeVisible();
  });

  test('below 1024 px the sidebar floats and closes on route change', async ({ page, account, signIn }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await signIn(page, account);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Show the sidebar' }).click();
    await expect(nav).toBeVisible();
    await nav.getByRole('link', { name: 'Calendar' }).click();
    await expect(page).toHaveURL('/calendar');
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Show the sidebar' }).click();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
  });
});

test.describe('top bar and feedback', () => {
  test('the user menu shows the user, opens Profile and signs out', async ({ signedInPage: page, account }) => {
    await page.getByRole('button', { name: `Account menu of ${account.username}` }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText(account.email)).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL('/profile');
    await page.getByRole('button', { name: `Account menu of ${account.username}` }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL('/login');
  });

  test('the loader fades out and scroll-to-top appears after 50 px', async ({ page, account, signIn }) => {
    await page.setViewportSize({ width: 1280, height: 300 });
    await signIn(page, account);
    await expect(page.locator('#boot-loader')).toHaveCount(0);
    const toTop = page.getByRole('button', { name: 'Scroll to the top' });
    await expect(toTop).toHaveCount(0);
    await page.mouse.wheel(0, 40);
    await page.waitForTimeout(300);
    await expect(toTop).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect(toTop).toBeVisible();
    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(toTop).toHaveCount(0);
  });

  test('server errors appear as toasts at the top right', async ({ page }) => {
    await page.goto('/confirm-signup?email=nobody%40example.com');
    await page.getByLabel('6-digit code').fill('123456');
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    const toast = page.locator('.Toastify__toast-container--top-right').getByRole('alert');
    await expect(toast).toHaveText('That code is wrong or has expired.');
  });
});
