import { meetingCalls, peopleCalls } from '@meetcast/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { callAs } from './support/people';

/** The Schedule, Instant Meeting and broadcast dialogs. */

const uniqueSlug = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e4)}`;
const pickerText = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
const tomorrowAtTen = () => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + 1);
  date.setUTCHours(10, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
};

async function openDialog(page: Page, button: 'Schedule A Meeting' | 'Instant Meeting') {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog', {
    name: button === 'Instant Meeting' ? 'Enter your meeting name' : 'Schedule a meeting',
  });
  await expect(dialog.getByLabel('Meeting name')).toBeVisible();
  return dialog;
}

async function pick(page: Page, label: string, text: string) {
  const input = page.getByRole('dialog').getByLabel(label, { exact: true });
  await input.fill(text);
  await input.press('Enter');
}

test.describe('everyday dialogs', () => {
  test.beforeEach(() => test.slow());

  test('Escape closes the open date picker first, then the dialog', async ({ signedInPage: page }) => {
    const dialog = await openDialog(page, 'Schedule A Meeting');
    await dialog.getByLabel('Start time', { exact: true }).click();
    const calendar = dialog.locator('.flatpickr-calendar.open');
    await expect(calendar).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(calendar).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('closing with typed content asks first: Escape, the close button and Cancel', async ({ signedInPage: page }) => {
    const dialog = await openDialog(page, 'Schedule A Meeting');
    await dialog.getByLabel('Meeting name').fill('Half-written plan');
    const question = page.getByRole('alertdialog', { name: 'Discard what you typed?' });

    await page.keyboard.press('Escape');
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Keep editing' }).click();
    await expect(question).toBeHidden();
    await expect(dialog.getByLabel('Meeting name')).toHaveValue('Half-written plan');

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(question).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(question).toBeHidden();
    await expect(dialog).toBeVisible();

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await question.getByRole('button', { name: 'Discard' }).click();
    await expect(dialog).toBeHidden();

    const instant = await openDialog(page, 'Instant Meeting');
    await instant.getByLabel('Meeting name').fill('Quick one');
    await page.keyboard.press('Escape');
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Discard' }).click();
    await expect(instant).toBeHidden();
    // An untouched dialog closes at once.
    await openDialog(page, 'Instant Meeting');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('Start on an untouched instant meeting starts at once, with a proposed name and link', async ({
    signedInPage: page,
  }) => {
    const instant = await openDialog(page, 'Instant Meeting');
    await expect(instant.getByLabel('Meeting name')).toHaveValue(/^Instant meeting, .+/);
    const link = instant.getByLabel('Meeting link');
    await expect(link).toHaveValue(/^meeting-[a-z0-9]{6}$/);
    const proposed = await link.inputValue();
    await expect(instant.getByRole('button', { name: 'Start Meeting' })).toBeEnabled();
    await instant.getByRole('button', { name: 'Start Meeting' }).click();
    await expect(page).toHaveURL(new RegExp(`/room/${proposed}`));
  });

  test('proposes the meeting link from the name, checks it on every change, and toasts success', async ({
    signedInPage: page,
    account,
  }) => {
    const taken = uniqueSlug('taken');
    await callAs(account, meetingCalls.addInstantMeeting, { name: 'Taken', slug: taken });

    const instant = await openDialog(page, 'Instant Meeting');
    const instantLink = instant.getByLabel('Meeting link');
    await instant.getByLabel('Meeting name').fill('Café Grüße: Q3 Review!');
    await expect(instantLink).toHaveValue('cafe-grusse-q3-review');
    await instant.getByLabel('Meeting name').fill(taken.replace(/-/g, ' '));
    await expect(instantLink).toHaveValue(taken);
    await expect(instant.getByText('This meeting link is already taken. Please choose another one.')).toBeVisible();
    await expect(instant.getByRole('button', { name: 'Start Meeting' })).toBeDisabled();
    // Once the link is typed by hand, the name no longer changes it.
    await instantLink.fill('my-own-link-here');
    await instant.getByLabel('Meeting name').fill('Something else');
    await expect(instantLink).toHaveValue('my-own-link-here');
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();

    const dialog = await openDialog(page, 'Schedule A Meeting');
    const name = `Planning ${uniqueSlug('p')}`;
    await dialog.getByLabel('Meeting name').fill(name);
    await expect(dialog.getByLabel('Meeting link')).toHaveValue(name.toLowerCase().replace(/ /g, '-'));
    const start = tomorrowAtTen();
    await pick(page, 'Start time', pickerText(start));
    await expect(dialog.getByLabel('End time', { exact: true })).toHaveValue(pickerText(start + 3600));
    const reload = page.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await reload;
    await expect(page.locator('.Toastify__toast--success')).toHaveText('Your meeting has been scheduled.');
    const check = await apiPost(meetingCalls.checkMeetName, {
      token: account.token,
      name: name.toLowerCase().replace(/ /g, '-'),
    });
    expect(check.httpStatus).toBe(409);
  });

  test('Cancel and Add stay on screen at 1440×900 however many invitees', async ({ page, account, signIn }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, account);
    const dialog = await openDialog(page, 'Schedule A Meeting');
    const address = dialog.getByLabel('Or invite by e-mail address');
    for (let index = 0; index < 40; index++) {
      await address.fill(`guest.number.${index}@example.com`);
      await dialog.getByRole('button', { name: 'Add address' }).click();
    }
    await expect(dialog.getByRole('list', { name: 'Chosen invitees' }).getByRole('listitem')).toHaveCount(40);
    for (const name of ['Cancel', 'Add']) {
      const button = dialog.getByRole('button', { name, exact: true });
      await expect(button).toBeInViewport({ ratio: 1 });
      await button.click({ trial: true });
    }
  });

  test('the broadcast dialog uses the meetings date picker, dark in dark mode', async ({ page, account, signIn }) => {
    await callAs(account, peopleCalls.createChannel, { name: 'Picker TV', slug: uniqueSlug('picker') });
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(page, account, '/my-channel');
    await page.getByRole('button', { name: 'Schedule a broadcast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a broadcast' });
    const starts = dialog.getByLabel('Starts');
    await expect(starts).toHaveValue(/^\d{4}-\d{2}-\d{2} \d{2}:00$/);
    await starts.click();
    const calendar = dialog.locator('.flatpickr-calendar.open');
    await expect(calendar).toBeVisible();
    // Next month holds no selected day: on the first of a month, this month's first day is the selected
    // one, in the selected day's own colours.
    await calendar.locator('.flatpickr-next-month').click();
    // Colours as sRGB through a canvas, whatever colour space the stylesheet wrote them in.
    const [background, day] = await calendar.evaluate((element) => {
      const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const rgb = (colour: string) => {
        if (!context) return [255, 255, 255];
        context.clearRect(0, 0, 1, 1);
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      const dayElement = element.querySelector('.flatpickr-day:not(.prevMonthDay):not(.nextMonthDay)');
      return [
        rgb(getComputedStyle(element).backgroundColor),
        rgb(dayElement ? getComputedStyle(dayElement).color : ''),
      ];
    });
    expect(Math.max(...(background ?? []))).toBeLessThan(60);
    expect(Math.min(...(day ?? []))).toBeGreaterThan(200);
    await page.keyboard.press('Escape');
    await expect(calendar).toHaveCount(0);
    await expect(dialog).toBeVisible();
  });
});
