import { expect, readCode, signInThroughPage, test } from './fixtures';
import { mailsTo, uniqueEmail } from './support/api';

test.describe('account pages', () => {
  test('sign up, confirm with the mailed code, stay signed in across a reload, sign out', async ({ page }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a long password');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/confirm-signup\?email=/);
    await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
    await expect(page.getByLabel('E-mail address')).toHaveValue(email);
    await page.getByLabel('6-digit code').fill(await readCode(email));
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();

    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: 'Welcome, Grace Hopper' })).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'meetcastUser');
    expect(cookie?.value).toMatch(/.{20,}/);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome, Grace Hopper' })).toBeVisible();

    await page.getByRole('button', { name: /Grace Hopper/ }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL('/login');
    expect((await page.context().cookies()).find((c) => c.name === 'meetcastUser')).toBeUndefined();

    // The token was revoked on the server, not just forgotten by the browser.
    const revoked = await fetch(new URL('/api/tokenverify.php', page.url()), {
      method: 'POST',
      body: new URLSearchParams({ token: cookie?.value ?? '' }),
    });
    expect(revoked.status).toBe(401);

    await page.goto('/contacts');
    await expect(page).toHaveURL('/login');
  });

  test('signing in with the page, and a wrong password shows the server message', async ({ page, account }) => {
    await page.goto('/login');
    await page.getByLabel('E-mail address').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong e-mail address or password.' })).toBeVisible();
    await expect(page).toHaveURL('/login');

    await signInThroughPage(page, account.email, account.password);
    await expect(page.getByRole('heading', { name: `Welcome, ${account.username}` })).toBeVisible();
  });

  test('reset a forgotten password through the pages', async ({ page, account }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL('/forgot-password');
    const before = (await mailsTo(account.email)).length;
    await page.getByLabel('E-mail address').fill(account.email);
    await page.getByRole('button', { name: 'Send the code' }).click();

    await expect(page).toHaveURL(/\/reset-password\?email=/);
    await page.getByLabel('6-digit code').fill(await readCode(account.email, { after: before }));
    await page.getByLabel('New password', { exact: true }).fill('my brand new password');
    await page.getByLabel('Repeat the new password').fill('my brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();

    await expect(page).toHaveURL('/login');
    await expect(page.getByText('Your password has been changed.')).toBeVisible();
    await signInThroughPage(page, account.email, 'my brand new password');
  });

  test('forms explain what is wrong before calling the server', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel('E-mail address').fill('not an address');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Enter a name of 2 to 40 characters.')).toBeVisible();
    await expect(page.getByText('Enter a valid e-mail address, like name@example.com.')).toBeVisible();
    await expect(page.getByText('Use 8 to 128 characters.')).toBeVisible();
    await expect(page.getByLabel('E-mail address')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/signup');

    await page.goto('/reset-password?email=someone%40example.com');
    await page.getByLabel('6-digit code').fill('12');
    await page.getByLabel('New password', { exact: true }).fill('first password');
    await page.getByLabel('Repeat the new password').fill('other password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Enter the 6-digit code from the e-mail.')).toBeVisible();
    await expect(page.getByText('The two passwords do not match.')).toBeVisible();
  });
});
