import { meetingCalls, peopleCalls } from '@meetcast/contracts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost, type Account } from './support/api';

let slugCounter = 0;
const uniqueSlug = (prefix = 'e2e') => `${prefix}-${Date.now().toString(36)}-${slugCounter++}`;
const DAY = 86_400;
const pad = (value: number) => String(value).padStart(2, '0');
/** `Y-m-d H:i` in UTC (the browser, the account and the server all run on UTC here). */
function pickerText(epochSeconds: number) {
  const date = new Date(epochSeconds * 1000);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}
const tomorrowAtTen = () => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + 1);
  date.setUTCHours(10, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
};

async function addMeeting(account: Account, fields: Record<string, string | number>) {
  const start = tomorrowAtTen();
  const answer = await apiPost(meetingCalls.addMeeting, {
    token: account.token,
    name: 'API meeting',
    is_schedule: 1,
    start_time: start,
    end_time: start + 3600,
    is_private: 2,
    password: '',
    is_password: 2,
    slug: uniqueSlug('api'),
    repeat: 0,
    ...fields,
  });
  expect(answer.httpStatus).toBe(200);
  return answer.body.data as { id: number; slug: string };
}

async function openSchedule(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('button', { name: 'Schedule A Meeting' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Schedule a meeting' });
  await expect(dialog.getByLabel('Meeting name')).toBeVisible();
  return dialog;
}

async function pick(page: Page, label: string, text: string) {
  const dialog = page.getByRole('dialog');
  const input = dialog.getByLabel(label, { exact: true });
  await input.fill(text);
  await input.press('Enter');
}

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text, { exact: true });

test.describe('Schedule a meeting', () => {
  test('shows every validation message, disables Add on slug errors and toasts missing data', async ({
    signedInPage: page,
    account,
  }) => {
    const taken = await addMeeting(account, {});
    const dialog = await openSchedule(page);
    const add = dialog.getByRole('button', { name: 'Add', exact: true });
    const slug = dialog.getByLabel('Meeting link');

    await add.click();
    await expect(toast(page, 'Invalid data found.')).toBeVisible();

    const cases: [string, string][] = [
      ['ab', 'The meeting link must be at least 3 characters long.'],
      ['Bad Slug', 'The meeting link may only contain lower-case letters, digits and hyphens.'],
      ['a'.repeat(65), 'The meeting link must be at most 64 characters long.'],
      [taken.slug, 'This meeting link is already taken. Please choose another one.'],
      ['', 'please enter valid name'],
    ];
    for (const [value, message] of cases) {
      await slug.fill(value);
      await expect(dialog.getByText(message, { exact: true })).toBeVisible();
      await expect(add).toBeDisabled();
    }
    const free = uniqueSlug('weekly');
    await slug.fill(free);
    await expect(dialog.getByText('please enter valid name')).toHaveCount(0);
    await expect(add).toBeEnabled();

    // Name and slug but no times: still invalid.
    await dialog.getByLabel('Meeting name').fill('Weekly planning');
    await add.click();
    await expect(toast(page, 'Invalid data found.').first()).toBeVisible();

    // A start in the past stays as typed and is explained under the field; Add waits for a fix.
    await pick(page, 'Start time', '2020-01-01 10:00');
    await expect(dialog.getByLabel('Start time', { exact: true })).toHaveValue('2020-01-01 10:00');
    await expect(dialog.getByText('The start is in the past. Choose a later time.')).toBeVisible();
    await expect(add).toBeDisabled();

    const start = tomorrowAtTen();
    await pick(page, 'Start time', pickerText(start));
    await expect(dialog.getByText('The start is in the past. Choose a later time.')).toHaveCount(0);
    await pick(page, 'End time', pickerText(start + 5400));
    await expect(dialog.getByLabel('End time', { exact: true })).toHaveValue(pickerText(start + 5400));
    // An end before the start is kept and said so under the end field, not silently dropped.
    await pick(page, 'End time', pickerText(start - 3600));
    await expect(dialog.getByLabel('End time', { exact: true })).toHaveValue(pickerText(start - 3600));
    await expect(dialog.getByText('The end must be after the start.')).toBeVisible();
    await expect(add).toBeDisabled();
    await pick(page, 'End time', pickerText(start + 5400));
    await expect(dialog.getByText('The end must be after the start.')).toHaveCount(0);
    await expect(dialog.getByLabel('End time', { exact: true })).toHaveValue(pickerText(start + 5400));

    // The password flag appears only for private meetings; a missing password comes back from the server.
    await expect(dialog.getByLabel('Protect with a password')).toHaveCount(0);
    await dialog.getByLabel('Who can join').selectOption({ label: 'Private' });
    await expect(dialog.getByLabel('Protect with a password')).toHaveValue('2');
    await dialog.getByLabel('Protect with a password').selectOption({ label: 'Yes' });
    await dialog.getByLabel('Repeat').selectOption({ label: 'Every week' });
    await add.click();
    await expect(toast(page, 'Please enter a password for this private meeting.')).toBeVisible();

    await dialog.getByLabel('Meeting password', { exact: true }).fill('open sesame');
    const request = page.waitForRequest((candidate) => candidate.url().endsWith('/api/add-meeting.php'));
    const reload = page.waitForEvent('load');
    await add.click();
    const sent = new URLSearchParams((await request).postData() ?? '');
    expect(Object.fromEntries(sent)).toMatchObject({
      name: 'Weekly planning',
      is_schedule: '1',
      start_time: String(start),
      end_time: String(start + 5400),
      is_private: '1',
      password: 'open sesame',
      is_password: '1',
      slug: free,
      repeat: '7',
    });
    expect(sent.get('start_time')).toMatch(/^\d+$/);
    await reload; // scheduling success reloads the page
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const check = await apiPost(meetingCalls.checkMeetName, { token: account.token, name: free });
    expect(check.httpStatus).toBe(409);
  });

  test('shows a repeating meeting as its occurrences in the upcoming list and the calendar', async ({
    page,
    account,
    signIn,
  }) => {
    await addMeeting(account, { name: 'Weekly sync', repeat: 7 });
    await signIn(page, account, '/upcoming-mettings');
    const list = page.getByRole('list', { name: 'Upcoming Meetings' });
    const cards = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Weekly sync' }) });
    await expect(cards).toHaveCount(10); // page 1 of the next 13 weekly occurrences
    await expect(page.getByText('Page 1 of 2 (13 in all)')).toBeVisible();
    const times = await cards
      .locator('time')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime')));
    const [first, second] = times.map((time) => Date.parse(time ?? ''));
    expect((second ?? 0) - (first ?? 0)).toBe(7 * DAY * 1000);
    await expect(cards.first().getByText('Every week')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Page 2 of 2 (13 in all)')).toBeVisible();
    await page.getByPlaceholder('Search meetings').fill('nothing like this');
    await expect(page.getByText('No meeting matches “nothing like this”.')).toBeVisible();

    await page.goto('/calendar');
    await page.getByRole('button', { name: 'List' }).click();
    await expect(page.locator('.fc-list-event').filter({ hasText: 'Weekly sync' })).toHaveCount(
      new Date().getUTCDay() === 0 ? 0 : 1,
    );
    await page.getByRole('button', { name: 'Month' }).click();
    await page.locator('.fc-next-button').click();
    await expect(page.locator('.fc-event').filter({ hasText: 'Weekly sync' }).first()).toBeVisible();
    expect(await page.locator('.fc-event').filter({ hasText: 'Weekly sync' }).count()).toBeGreaterThanOrEqual(4);
  });

  test('cancels one occurrence of a series from the upcoming list', async ({ page, account, signIn }) => {
    await addMeeting(account, { name: 'Daily standup', repeat: 1 });
    await signIn(page, account, '/upcoming-mettings');
    const cards = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Daily standup' }) });
    const firstTime = () => cards.first().locator('time').getAttribute('datetime');
    const before = Date.parse((await firstTime()) ?? '');
    await cards.first().getByRole('button', { name: 'Cancel meeting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel meeting' });
    await expect(dialog.getByLabel(/Only this occurrence/)).toBeChecked();
    await dialog.getByRole('button', { name: 'Cancel meeting' }).click();
    await expect(toast(page, 'This occurrence of the meeting has been cancelled.')).toBeVisible();
    await expect.poll(async () => Date.parse((await firstTime()) ?? '')).toBe(before + DAY * 1000);
  });
});

test.describe('Instant meeting', () => {
  test('checks the slug, toasts missing data and lands in /room/{slug}?password=…', async ({
    page,
    account,
    signIn,
  }) => {
    const profile = await apiPost(peopleCalls.updateProfile, { token: account.token, default_meeting_password: true });
    expect(profile.httpStatus).toBe(200);
    await signIn(page, account);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Instant Meeting' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Enter your meeting name' });
    const start = dialog.getByRole('button', { name: 'Start Meeting' });
    // The dialog proposes a name and a link; with the name cleared, the meeting has none.
    await dialog.getByLabel('Meeting name').fill('');
    await start.click();
    await expect(toast(page, 'Invalid data found.')).toBeVisible();

    await dialog.getByLabel('Meeting link').fill('x');
    await expect(dialog.getByText('The meeting link must be at least 3 characters long.')).toBeVisible();
    await expect(start).toBeDisabled();
    await dialog.getByLabel('Meeting link').fill('');
    await expect(dialog.getByText('please enter valid name', { exact: true })).toBeVisible();
    await expect(start).toBeDisabled();

    const slug = uniqueSlug('instant');
    await dialog.getByLabel('Meeting link').fill(slug);
    await expect(start).toBeEnabled();
    await dialog.getByLabel('Meeting name').fill('Quick call');
    await start.click();
    await expect(page).toHaveURL(new RegExp(`/room/${slug}\\?password=[a-z2-9]{8}$`));
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('goes to /room/{slug} without a password when the user has none by default', async ({
    page,
    account,
    signIn,
  }) => {
    await signIn(page, account);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Instant Meeting' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Enter your meeting name' });
    const slug = uniqueSlug('open');
    await dialog.getByLabel('Meeting name').fill('Open call');
    await dialog.getByLabel('Meeting link').fill(slug);
    await expect(dialog.getByRole('button', { name: 'Start Meeting' })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Start Meeting' }).click();
    await expect(page).toHaveURL(`/room/${slug}`);
  });
});
