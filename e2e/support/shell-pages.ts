import { expect, type Page } from '@playwright/test';

/** Every page of the frame, for the accessibility sweep (one per route of spec section 2). */
export const PAGE_PATHS_SIGNED_OUT = [
  '/login',
  '/signup',
  '/confirm-signup',
  '/forgot-password',
  '/reset-password',
  '/channel',
  '/channel/some-channel',
  '/room/some-room',
];

export const PAGE_PATHS_SIGNED_IN = [
  '/',
  '/upcoming-mettings',
  '/recent-mettings',
  '/calendar',
  '/connect-stream',
  '/contacts',
  '/channels',
  '/channels/some-meeting',
  '/create-channel',
  '/my-channel',
  '/edit-channel/1',
  '/profile',
  '/room/some-room',
  '/contact-us',
  '/no-such-page',
  '/admin',
  '/admin/dashboard',
  '/admin/users',
  '/admin/meetings',
  '/admin/channels',
  '/admin/contacts',
  '/admin/events',
];

/**
 * Goes to the next page inside the running app, as its own links do, instead of loading and starting
 * the app again (about a second and a half per page). The headings of the page left behind are marked,
 * so the sweep waits for the next page's own heading; a page that keeps the same heading element (one
 * component for two paths) is measured once the router has settled. With `settle`, it also waits until
 * no request has been in flight for 300 ms (the page's data, tables and charts filled in): Playwright's
 * `networkidle` belongs to the first load, long passed by then.
 */
export async function navigateInApp(page: Page, path: string, options: { settle?: boolean } = {}) {
  let inFlight = 0;
  let lastChange = Date.now();
  const started = () => {
    inFlight += 1;
    lastChange = Date.now();
  };
  const ended = () => {
    inFlight -= 1;
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await page.locator('h1').evaluateAll((headings) => headings.forEach((h) => h.setAttribute('data-left', '')));
    await page.evaluate((next) => {
      window.history.pushState(null, '', next);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await expect(page).toHaveURL((url) => url.pathname === path);
    const fresh = page.locator('h1:not([data-left])').first();
    await fresh.waitFor({ timeout: 5_000 }).catch(() => page.waitForLoadState('networkidle'));
    await expect(page.locator('h1').first()).toBeVisible();
    if (options.settle) {
      await expect
        .poll(() => inFlight <= 0 && Date.now() - lastChange >= 300, { timeout: 10_000, intervals: [100] })
        .toBe(true);
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
