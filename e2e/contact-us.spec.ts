import { expect, test } from './fixtures';
import { mailsTo } from './support/api';

test.describe('contact us', () => {
  test('checks the fields, sends the message and confirms it by mail', async ({ page, account, signIn }) => {
    await signIn(page, account, '/contact-us');
    await expect(page.getByRole('heading', { name: 'Contact Us', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Your name')).toHaveValue(account.username);
    await expect(page.getByLabel('Your e-mail address')).toHaveValue(account.email);
    await page.getByLabel('Your e-mail address').fill('nope');
    await page.getByLabel('Message').fill('short');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Enter a valid e-mail address so that we can answer.')).toBeVisible();
    await expect(page.getByText('Enter a subject (up to 150 characters).')).toBeVisible();
    await expect(page.getByText('Write at least 10 characters (up to 5000).')).toBeVisible();

    await page.getByLabel('Your e-mail address').fill(account.email);
    await page.getByLabel('Subject').fill('Bigger rooms');
    await page.getByLabel('Message').fill('Could meetings hold 200 people one day?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('heading', { name: 'Message sent' })).toBeVisible();
    await expect(page.getByText('Thank you! Your message was sent. We will answer by e-mail.')).toBeVisible();
    await expect
      .poll(async () => (await mailsTo(account.email)).some((mail) => mail.subject.includes('Bigger rooms')))
      .toBe(true);
  });
});
