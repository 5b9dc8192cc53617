import { peopleCalls } from '@meetcast/contracts';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueEmail } from './support/api';
import { callAs } from './support/people';

/** Toasts readable (WCAG AA) in both themes; a form's old error goes on success. */

/** Contrast ratio of a toast's text against its background, both read as sRGB through a canvas. */
async function contrastOf(toast: Locator): Promise<number> {
  return toast.evaluate((element) => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const rgb = (colour: string) => {
      if (!context) return [0, 0, 0];
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const luminance = (colour: string) => {
      const [r = 0, g = 0, b = 0] = rgb(colour).map((value) => {
        const channel = value / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(element);
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
    return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
  });
}

async function addContact(page: Page, name: string, email: string) {
  await page.getByRole('button', { name: 'Add contact' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add a contact' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  return dialog;
}

for (const theme of ['light', 'dark'] as const) {
  test(`success, error and plain toasts reach 4.5:1 in the ${theme} theme`, async ({ page, account, signIn }) => {
    test.slow();
    const taken = uniqueEmail('taken');
    await callAs(account, peopleCalls.addContact, { name: 'Already here', email: taken });
    await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
    await signIn(page, account, '/contacts');

    const dialog = await addContact(page, 'Twice', taken);
    const error = page.locator('.Toastify__toast--error');
    await expect(error).toBeVisible();
    expect(await contrastOf(error)).toBeGreaterThanOrEqual(4.5);

    await dialog.getByLabel('E-mail').fill(uniqueEmail('fresh'));
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    const success = page.locator('.Toastify__toast--success');
    await expect(success).toBeVisible();
    expect(await contrastOf(success)).toBeGreaterThanOrEqual(4.5);
    // The form went through: its earlier error no longer stands.
    await expect(error).toHaveCount(0);

    await page.getByRole('button', { name: 'Delete Already here' }).click();
    const plain = page.locator('.Toastify__toast--default');
    await expect(plain).toBeVisible();
    expect(await contrastOf(plain)).toBeGreaterThanOrEqual(4.5);
  });
}
