import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const htmlClass = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

test.describe('theme', () => {
  test('dark by default, toggled and kept across a reload', async ({ signedInPage: page }) => {
    expect(await htmlClass(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    await page.getByRole('button', { name: /^Theme: Dark/ }).click();
    await expect.poll(() => htmlClass(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('system');

    // The context's colour scheme is light, so "system" is light; one more click picks Light itself.
    await page.getByRole('button', { name: /^Theme: System/ }).click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await page.reload();
    await expect(page.getByRole('button', { name: /^Theme: Light/ })).toBeVisible();
    expect(await htmlClass(page)).toBe(false);

    await page.getByRole('button', { name: /^Theme: Light/ }).click();
    await expect.poll(() => htmlClass(page)).toBe(true);
    await page.reload();
    expect(await htmlClass(page)).toBe(true);
  });

  test('the stored theme and direction apply before any app script runs', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    // Without the app's scripts, only the page's inline preferences script can set these (and no
    // running app can write its own preferences over the ones stored here).
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/login');
    await page.evaluate(() => {
      localStorage.setItem('theme', 'light');
      localStorage.setItem('i18nextLng', 'ar');
      localStorage.setItem('rtlClass', 'rtl');
    });
    await page.reload();
    expect(await htmlClass(page)).toBe(false);
    expect(await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).toEqual([
      'rtl',
      'ar',
    ]);
    expect(violations).toEqual([]);
  });

  test('the preferences are stored under the spec keys with their defaults', async ({ page }) => {
    await page.goto('/login');
    const stored = await page.evaluate(() =>
      Object.fromEntries(
        ['theme', 'menu', 'layout', 'rtlClass', 'animation', 'navbar', 'i18nextLng', 'sidebar', 'semidark'].map(
          (key) => [key, localStorage.getItem(key)],
        ),
      ),
    );
    expect(stored).toEqual({
      theme: 'dark',
      menu: 'vertical',
      layout: 'full',
      rtlClass: 'ltr',
      animation: 'fade-in-left',
      navbar: 'sticky',
      i18nextLng: 'en',
      sidebar: 'true',
      semidark: 'false',
    });
  });

  test('system follows prefers-color-scheme, live', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('theme', 'system'));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/login');
    expect(await htmlClass(page)).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => htmlClass(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => htmlClass(page)).toBe(false);
  });
});

test.describe('languages', () => {
  test('switching to Arabic flips the layout to right-to-left, sidebar included', async ({ signedInPage: page }) => {
    const nav = page.getByRole('navigation').first();
    expect((await nav.boundingBox())?.x).toBe(0);

    await page.getByLabel('Language').selectOption('ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.getByRole('link', { name: 'لوحة التحكم' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('rtlClass'))).toBe('rtl');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('ar');
    const viewport = page.viewportSize()!;
    await expect.poll(async () => (await nav.boundingBox())?.x).toBe(viewport.width - 260);

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

    await page.getByLabel('اللغة').selectOption('en');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  });

  test('the lng query parameter comes first in detection', async ({ page }) => {
    await page.goto('/login?lng=de');
    await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('de');
  });
});
