import { meetingCalls } from '@meetcast/contracts';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

test.describe('Calendar', () => {
  test('creates, drags and deletes a personal event', async ({ page, account, signIn }) => {
    await signIn(page, account, '/calendar');
    await expect(page.locator('.fc-daygrid-day').first()).toBeVisible();
    const today = new Date();
    const tomorrow = new Date(today.getTime() + 86_400_000);
    // If tomorrow is outside this month's grid, use the next month's.
    if ((await page.locator(`.fc-daygrid-day[data-date="${isoDay(tomorrow)}"]`).count()) === 0) {
      await page.locator('.fc-next-button').click();
    }
    const from = page.locator(`.fc-daygrid-day[data-date="${isoDay(tomorrow)}"]`);
    await from.locator('.fc-daygrid-day-frame').click({ position: { x: 30, y: 50 } });

    const choice = page.getByRole('dialog', { name: 'What would you like to add?' });
    await choice.getByRole('button', { name: 'A personal event' }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByRole('button', { name: 'Save event' }).click();
    await expect(dialog.getByText('Please enter a title.')).toBeVisible();
    await dialog.getByLabel('Title').fill('Dentist');
    await dialog.getByLabel('#10b981').check({ force: true });
    await dialog.getByRole('button', { name: 'Save event' }).click();
    await expect(page.locator('.Toastify').getByText('The event has been added to your calendar.')).toBeVisible();
    const event = page.locator('.fc-event').filter({ hasText: 'Dentist' });
    await expect(event).toBeVisible();

    const listed = async () => (await apiPost(meetingCalls.getEvents, { token: account.token })).body.data?.data ?? [];
    const [created] = await listed();
    expect(created).toMatchObject({
      title: 'Dentist',
      is_all_day: true,
      end_time: (created?.start_time ?? 0) + 86_400,
    });

    // Drag it one day later.
    const dayAfter = new Date(tomorrow.getTime() + 86_400_000);
    const target = page.locator(`.fc-daygrid-day[data-date="${isoDay(dayAfter)}"]`);
    if ((await target.count()) > 0) {
      const source = await event.boundingBox();
      const destination = await target.boundingBox();
      if (!source || !destination) throw new Error('no boxes');
      await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
      await page.mouse.down();
      await page.mouse.move(source.x + source.width / 2 + 10, source.y + source.height / 2, { steps: 5 });
      await page.mouse.move(destination.x + destination.width / 2, destination.y + destination.height / 2, {
        steps: 10,
      });
      await page.mouse.up();
      await expect(page.locator('.Toastify').getByText('The event has been updated.')).toBeVisible();
      await expect.poll(async () => (await listed())[0]?.start_time).toBe((created?.start_time ?? 0) + 86_400);
      await expect(target.locator('.fc-event').filter({ hasText: 'Dentist' })).toBeVisible();
    }

    await page.locator('.fc-event').filter({ hasText: 'Dentist' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit event' });
    await edit.getByRole('button', { name: 'Delete event' }).click();
    await expect(page.locator('.Toastify').getByText('The event has been deleted.')).toBeVisible();
    await expect(page.locator('.fc-event').filter({ hasText: 'Dentist' })).toHaveCount(0);
    expect(await listed()).toEqual([]);
  });

  test('schedules a meeting from a selected slot and shows it', async ({ page, account, signIn }) => {
    await signIn(page, account, '/calendar');
    await expect(page.locator('.fc-daygrid-day').first()).toBeVisible();
    const tomorrow = new Date(Date.now() + 86_400_000);
    if ((await page.locator(`.fc-daygrid-day[data-date="${isoDay(tomorrow)}"]`).count()) === 0) {
      await page.locator('.fc-next-button').click();
    }
    await page
      .locator(`.fc-daygrid-day[data-date="${isoDay(tomorrow)}"] .fc-daygrid-day-frame`)
      .click({ position: { x: 30, y: 50 } });
    await page
      .getByRole('dialog', { name: 'What would you like to add?' })
      .getByRole('button', { name: 'A meeting' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a meeting' });
    await expect(dialog.getByLabel('Start time', { exact: true })).toHaveValue(`${isoDay(tomorrow)} 09:00`);
    await expect(dialog.getByLabel('End time', { exact: true })).toHaveValue(`${isoDay(tomorrow)} 10:00`);
    await dialog.getByLabel('Meeting name').fill('From the calendar');
    await dialog.getByLabel('Meeting link').fill(`cal-${Date.now().toString(36)}`);
    await expect(dialog.getByRole('button', { name: 'Add', exact: true })).toBeEnabled();
    const reload = page.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await reload;
    await expect(page.locator('.fc-daygrid-day').first()).toBeVisible();
    if ((await page.locator(`.fc-daygrid-day[data-date="${isoDay(tomorrow)}"]`).count()) === 0) {
      await page.locator('.fc-next-button').click();
    }
    await expect(page.locator('.fc-event').filter({ hasText: 'From the calendar' })).toBeVisible();
    await page.locator('.fc-event').filter({ hasText: 'From the calendar' }).click();
    await expect(
      page.getByRole('dialog', { name: 'From the calendar' }).getByRole('link', { name: 'Join the meeting' }),
    ).toBeVisible();
  });
});
