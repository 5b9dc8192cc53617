import { meetingCalls } from '@meetcast/contracts';
import { expect, test } from './fixtures';
import { callAs } from './support/people';

/** Labels fit, names keep their direction in Arabic, one time format per language. */
const LANGUAGES = ['ar', 'da', 'de', 'el', 'en', 'es', 'fr', 'hu', 'it', 'ja', 'pl', 'pt', 'ru', 'sv', 'tr', 'zh'];

test('every sidebar label fits, in every language', async ({ page, signIn, account }) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, account);
  const cut: string[] = [];
  for (const language of LANGUAGES) {
    await page.goto(`/?lng=${language}`);
    const labels = page.locator('nav#app-sidebar span.truncate');
    await expect(labels.first()).toBeVisible();
    for (const label of await labels.all()) {
      const { text, isCut } = await label.evaluate((element) => ({
        text: element.textContent ?? '',
        isCut: element.scrollWidth > element.clientWidth,
      }));
      if (isCut) cut.push(`${language}: ${text}`);
    }
  }
  expect(cut).toEqual([]);
});

test('the dashboard chart’s dates do not run into each other (Japanese)', async ({ page, signIn, account }) => {
  await signIn(page, account, '/?lng=ja');
  const labels = page.locator('figure svg text[data-axis-label]');
  await expect(labels.first()).toBeVisible();
  const boxes = await labels.evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = node.getBoundingClientRect();
      return { start: box.left, end: box.right };
    }),
  );
  expect(boxes.length).toBeGreaterThan(2);
  for (let index = 1; index < boxes.length; index++) {
    expect(boxes[index]?.start ?? 0).toBeGreaterThan((boxes[index - 1]?.end ?? 0) + 2);
  }
});

test('left-to-right names inside Arabic text are isolated and cut from their own end', async ({
  page,
  signIn,
  signUp,
}) => {
  const person = await signUp({ username: 'Alexander Montgomery-Fitzgerald' });
  await signIn(page, person, '/?lng=ar');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toContainText('Alexander Montgomery-Fitzgerald');
  expect(await heading.textContent()).toContain('\u2068Alexander Montgomery-Fitzgerald\u2069');
  const name = page.locator('header').getByText('Alexander Montgomery-Fitzgerald', { exact: true });
  await expect(name).toHaveAttribute('dir', 'auto');
  expect(await name.evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
});

test('times read one way per language: 5:00 PM – 6:00 PM, 17:00 – 18:00', async ({ page, account, signIn }) => {
  const start = new Date();
  start.setUTCDate(start.getUTCDate() + 2);
  start.setUTCHours(17, 0, 0, 0);
  const seconds = Math.floor(start.getTime() / 1000);
  await callAs(account, meetingCalls.addMeeting, {
    name: 'Evening sync',
    is_schedule: 1,
    start_time: seconds,
    end_time: seconds + 3600,
    is_private: 2,
    password: '',
    is_password: 2,
    slug: `evening-${Date.now().toString(36)}`,
    repeat: 0,
    time_zone: 'UTC',
  });
  await signIn(page, account, '/upcoming-mettings?lng=en');
  const card = page.getByRole('listitem').filter({ hasText: 'Evening sync' });
  await expect(card.locator('time')).toHaveText(/, 5:00\sPM – 6:00\sPM$/);
  await page.goto('/upcoming-mettings?lng=de');
  await expect(card.locator('time')).toHaveText(/, 17:00 – 18:00$/);
});
