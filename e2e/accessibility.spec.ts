import { meetingCalls } from '@meetcast/contracts';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { createMeeting } from './support/room';
import { navigateInApp, PAGE_PATHS_SIGNED_IN, PAGE_PATHS_SIGNED_OUT } from './support/shell-pages';

/** WCAG 2.2 AA with axe-core: zero serious or critical violations on every shell page. */
// Contrast, axe's costliest rule, is measured in each theme. The dark theme changes colours only, so its
// sweep runs contrast alone; Arabic shows the light theme's colours, so its sweep checks everything else
// (names, roles, language, structure in right-to-left).
const VARIANTS = [
  { name: 'light', theme: 'light', language: 'en', rules: 'all' },
  { name: 'dark', theme: 'dark', language: 'en', rules: 'contrast' },
  { name: 'arabic', theme: 'light', language: 'ar', rules: 'all but contrast' },
] as const;
type Variant = (typeof VARIANTS)[number];

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function seriousViolations(page: Page, variant: Variant) {
  const axe = new AxeBuilder({ page });
  if (variant.rules === 'contrast') axe.withRules(['color-contrast']);
  else axe.withTags(WCAG_AA).disableRules(variant.rules === 'all' ? [] : ['color-contrast']);
  const results = await axe.analyze();
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

    // The signed-in pages in two halves, so that two workers share the longest sweep.
    const halves = [
      { name: 'member', paths: PAGE_PATHS_SIGNED_IN.filter((path) => !path.startsWith('/admin')) },
      { name: 'administration', paths: PAGE_PATHS_SIGNED_IN.filter((path) => path.startsWith('/admin')) },
    ];
    for (const half of halves) {
      test(`every signed-in page, ${half.name}`, async ({ page, adminSession, signUp }) => {
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
          is_all_day: 1 as const,
          color: '#f59e0b',
        };
        expect((await apiPost(meetingCalls.addEvent, { token: host.token, ...offsite })).httpStatus).toBe(200);
        await adminSession(page);
        await sweep(page, variant, half.paths);
      });
    }

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
