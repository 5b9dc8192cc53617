import { accountCalls, peopleCalls } from '@meetcast/contracts';
import { expect, test } from './fixtures';
import { apiPost, logIn, readCode, uniqueEmail, mailsTo } from './support/api';
import { FAKE_PNG, callAs, realPng } from './support/people';

test.describe('profile', () => {
  // Several server round trips each, on a machine that may be busy.
  test.beforeEach(() => test.slow());
  test('changes username and preferences, with validation', async ({ page, account, signIn }) => {
    await signIn(page, account, '/profile');
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible({ timeout: 30_000 });
    await page.getByLabel('Username').fill('A');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect(page.getByText('Use 2 to 40 characters.')).toBeVisible();
    await page.getByLabel('Username').fill('Renamed Rita');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect(page.getByText('Your profile was saved.')).toBeVisible();
    await expect(page.getByRole('banner').getByText('Renamed Rita')).toBeVisible();

    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    await page.getByLabel('Reminder before meetings (minutes)').fill('99999');
    await page.getByRole('button', { name: 'Save' }).nth(1).click();
    await expect(page.getByText('Enter a whole number from 0 to 1440.')).toBeVisible();
    await page.getByLabel('Reminder before meetings (minutes)').fill('30');
    await page.getByLabel('Protect instant meetings with a password').check();
    await page.getByRole('button', { name: 'Save' }).nth(1).click();
    await expect(page.getByText('Your profile was saved.').first()).toBeVisible();
    // The toast seen may still be the username's: the server is asked until the second save is there.
    const preferences = async () => (await callAs(account, peopleCalls.getProfile)).data;
    await expect
      .poll(preferences)
      .toMatchObject({ time_zone: 'Europe/Paris', reminder_minutes: 30, default_meeting_password: true });
  });

  test('uploads a real picture and refuses a fake one', async ({ page, account, signIn }) => {
    await signIn(page, account, '/profile');
    await page.getByLabel('Upload a picture').setInputFiles(FAKE_PNG);
    await expect(page.getByText('This file is not a JPEG, PNG or WebP picture. Choose another one.')).toBeVisible();
    await page
      .getByLabel('Upload a picture')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await realPng() });
    await expect(page.getByText('Your picture was saved.')).toBeVisible();
    const avatar = page.getByRole('banner').locator('img[src*="/uploads/avatars/"]');
    await expect(avatar.first()).toBeVisible();
    await page.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Your picture was removed.')).toBeVisible();
  });

  test('changes the e-mail address with the code mailed to the new one', async ({ page, account, signIn }) => {
    await signIn(page, account, '/profile');
    const newEmail = uniqueEmail('moved');
    await page.getByLabel('E-mail address').fill('broken@');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();
    await page.getByLabel('E-mail address').fill(newEmail);
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect(
      page.getByText(`We sent a 6-digit code to ${newEmail}. Enter it to make it your address.`),
    ).toBeVisible();
    await page.getByLabel('Confirmation code').fill('12');
    await page.getByRole('button', { name: 'Confirm the new address' }).click();
    await expect(page.getByText('Enter the 6 digits of the code.')).toBeVisible();
    const code = await readCode(newEmail);
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm the new address' }).click();
    await expect(page.getByText(`Your e-mail address is now ${newEmail}.`)).toBeVisible();
    await expect(page.getByLabel('E-mail address')).toHaveValue(newEmail);
    expect((await apiPost(accountCalls.login, { email: newEmail, password: account.password })).httpStatus).toBe(200);
    // The notice to the old address is mailed after the answer; give the mail sink a moment.
    await expect
      .poll(async () => (await mailsTo(account.email)).some((mail) => /changed/.test(mail.subject)))
      .toBe(true);
  });

  test('changes the password, which signs out the other sessions; revokes one session', async ({
    page,
    account,
    signIn,
  }) => {
    const other = await logIn(account.email, account.password);
    const third = await logIn(account.email, account.password);
    await signIn(page, account, '/profile');
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await expect(sessions.getByRole('listitem')).toHaveCount(3, { timeout: 30_000 });
    await expect(sessions.getByText('This device')).toHaveCount(1);
    await sessions.getByRole('listitem').filter({ hasNotText: 'This device' }).first().getByRole('button').click();
    await expect(page.getByText('The session was signed out.')).toBeVisible();
    await expect(sessions.getByRole('listitem')).toHaveCount(2);

    await page.getByLabel('Current password').fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password').fill('different');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('At least 8 characters.', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('The two passwords are not the same.')).toBeVisible();
    await page.getByLabel('Current password').fill('wrong password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Repeat the new password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('The current password is wrong.')).toBeVisible();
    await page.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password was changed. Every other session was signed out.')).toBeVisible();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    for (const session of [other, third]) {
      expect((await apiPost(accountCalls.tokenverify, { token: session.token })).httpStatus).toBe(401);
    }
    expect((await apiPost(accountCalls.tokenverify, { token: account.token })).httpStatus).toBe(200);
  });

  test('downloads my data and deletes the account after the password', async ({ page, account, signIn }) => {
    await callAs(account, peopleCalls.addContact, { name: 'Kept Contact' });
    await signIn(page, account, '/profile');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data (JSON)' }).click();
    const file = await download;
    const json = JSON.parse(Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8')) as {
      account: { email: string };
      contacts: { name: string }[];
    };
    expect(json.account.email).toBe(account.email);
    expect(json.contacts.map((c) => c.name)).toEqual(['Kept Contact']);

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(dialog.getByText('Enter your password to confirm.')).toBeVisible();
    await dialog.getByLabel('Your password').fill('not my password');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(dialog.getByText('The current password is wrong.')).toBeVisible();
    await dialog.getByLabel('Your password').fill(account.password);
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(page).toHaveURL('/login');
    expect((await apiPost(accountCalls.login, { email: account.email, password: account.password })).httpStatus).toBe(
      401,
    );
  });
});
