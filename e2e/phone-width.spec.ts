import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { navigateInApp, PAGE_PATHS_SIGNED_IN, PAGE_PATHS_SIGNED_OUT } from './support/shell-pages';

/**
 * At a phone's 390 px no page is wider than the screen. Tables may scroll inside
 * their own frame; the document and the page's main area may not scroll sideways.
 */
const PHONE = { width: 390, height: 844 };

async function open(page: Page, path: string, language: string) {
  await page.setViewportSize(PHONE);
  await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), language);
  await page.goto(path);
  await expect(page.locator('#boot-loader')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('h1').first()).toBeVisible();
  // Data tables, charts and the calendar fill in after their first answer.
  await page.waitForLoadState('networkidle');
}

/** Elements wider than the screen: the document itself and every main area. */
async function overflows(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) {
      found.push(`document ${document.documentElement.scrollWidth}px`);
    }
    for (const main of Array.from(document.querySelectorAll('main'))) {
      if (main.scrollWidth > main.clientWidth + 1) found.push(`main ${main.scrollWidth}px in ${main.clientWidth}px`);
    }
    return found;
  });
}

/** Every page in one running app: the first is loaded, the others are reached inside the app. */
async function sweep(page: Page, language: string, paths: readonly string[]) {
  const found: Record<string, string[]> = {};
  for (const [index, path] of paths.entries()) {
    await test.step(path, async () => {
      if (index === 0) await open(page, path, language);
      else await navigateInApp(page, path, { settle: true });
      found[path] = await overflows(page);
    });
  }
  expect(found).toEqual(Object.fromEntries(paths.map((path) => [path, []])));
}

for (const language of ['en', 'ar']) {
  test.describe(`390 px wide, ${language}`, () => {
    test.describe.configure({ timeout: 400_000 });

    test('every signed-out page', async ({ page }) => {
      await sweep(page, language, PAGE_PATHS_SIGNED_OUT);
    });

    test('every signed-in page', async ({ page, adminSession }) => {
      await adminSession(page);
      await sweep(page, language, PAGE_PATHS_SIGNED_IN);
    });
  });
}
