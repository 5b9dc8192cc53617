import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { createMeeting } from './support/room';
import { PAGE_PATHS_SIGNED_IN, PAGE_PATHS_SIGNED_OUT } from './support/shell-pages';

/** WCAG 2.2 AA with axe-core: zero serious or critical violations on every shell page. */
// Contrast, axe's costliest rule, is measured in each theme; Arabic shows the light theme's colours, so
// its sweep checks everything else (names, roles, language, structure in right-to-left).
const VARIANTS = [
  { name: 'light', theme: 'light', language: 'en', skipRules: [] },
  { name: 'dark', theme: 'dark', language: 'en', skipRules: [] },
  { name: 'arabic', theme: 'light', language: 'ar', skipRules: ['color-contrast'] },
] as const;
type Variant = (typeof VARIANTS)[number];

async function seriousViolations(page: Page, variant: Variant) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .disableRules([...variant.skipRules])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}

async function open(page: Page, variant: Variant, path: string) {
  await page.addInitScript(
    ({ theme, language }) => {
      localStorage.setItem('theme', theme);
      localStorage.setItem('i18nextLng', language);
    },
    { theme: variant.theme, language: variant.language },
  );
  await page.goto(path);
  await expect(page.locator('#boot-loader')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('html')).toHaveAttribute('dir', variant.language === 'ar' ? 'rtl' : 'ltr');
  await expect(page.locator('h1').first()).toBeVisible();
}

/**
 * Goes to the next page inside the running app, as its own links do, instead of loading and starting
 * the app again (about a second and a half per page). The headings of the page left behind are marked,
 * so the sweep waits for the next page's own heading; a page that keeps the same heading element (one
 * component for two paths) is measured once the router has settled.
 */
async function navigateInApp(page: Page, path: string) {
  await page.locator('h1').evaluateAll((headings) => headings.forEach((h) => h.setAttribute('data-left', '')));
  await page.evaluate((next) => {
    window.history.pushState(null, '', next);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL((url) => url.pathname === path);
  const fresh = page.locator('h1:not([data-left])').first();
  await fresh.waitFor({ timeout: 5_000 }).catch(() => page.waitForLoadState('networkidle'));
  await expect(page.locator('h1').first()).toBeVisible();
}

/**
 * One sweep per variant and session: the first page is loaded, the others are reached inside the app,
 * with animations reduced so that colours are measured at full opacity without waiting.
 */
async function sweep(page: Page, variant: Variant, paths: readonly string[]) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const found: Record<string, Awaited<ReturnType<typeof seriousViolations>>> = {};
  for (const [index, path] of paths.entries()) {
    await test.step(path, async () => {
      if (index === 0) await open(page, variant, path);
      else await navigateInApp(page, path);
      found[path] = await seriousViolations(page, variant);
    });
  }
  expect(found).toEqual(Object.fromEntries(paths.map((path) => [path, []])));
}

for (const variant of VARIANTS) {
  test.describe(`axe, ${variant.name}`, () => {
    test.describe.configure({ timeout: 400_000 });

    test('every signed-out page', async ({ page }) => {
      await sweep(page, variant, PAGE_PATHS_SIGNED_OUT);
    });

    test('every signed-in page', async ({ page, adminSession, signUp }) => {
      // A crowded day, as on a busy installation: the administrator's calendar of events shows
      // "+N more" and tightly stacked entries (they once failed axe's allowed ARIA attributes and target sizes).
      const host = await signUp();
      for (let meeting = 0; meeting < 4; meeting++) await createMeeting(host);
      // A whole-day entry in a light colour: FullCalendar writes white on every coloured block (as on
      // a meeting that crosses midnight), which failed contrast in the administrator's calendar.
      const today = Math.floor(Date.now() / 86_400_000) * 86_400;
      const offsite = {
        title: 'Offsite',
        start_time: today,
        end_time: today + 86_400,
        is_all_day: 1,
        color: '#f59e0b',
      };
      expect((await apiPost('add-event.php', { token: host.token, ...offsite })).httpStatus).toBe(200);
      await adminSession(page);
      await sweep(page, variant, PAGE_PATHS_SIGNED_IN);
    });

    test('dialogs and menus', async ({ page, adminSession }) => {
      await adminSession(page);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await open(page, variant, '/');
      const found: Record<string, unknown> = {};
      await page.locator('[data-nav="instant"]').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      found['instant dialog'] = await seriousViolations(page, variant);
      await page.keyboard.press('Escape');
      await page.locator('[data-nav="schedule"]').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      found['schedule dialog'] = await seriousViolations(page, variant);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.locator('header button[aria-haspopup="menu"]').first().click();
      await expect(page.getByRole('menu')).toBeVisible();
      found['notification menu'] = await seriousViolations(page, variant);
      await page.keyboard.press('Escape');
      await page.locator('header button[aria-haspopup="menu"]').last().click();
      await expect(page.getByRole('menu')).toBeVisible();
      found['user menu'] = await seriousViolations(page, variant);
      expect(found).toEqual({
        'instant dialog': [],
        'schedule dialog': [],
        'notification menu': [],
        'user menu': [],
      });
    });
  });
}
