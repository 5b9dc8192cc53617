import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E_OIDC } from './support/oidc';
import { APP_URL, OIDC_ISSUER } from './support/ports';

/**
 * External sign-in against the real test provider of e2e/support/oidc-provider.ts (oidc-provider
 * with its development login and consent pages), started by playwright.config.ts.
 */
const BUTTON = `Sign in with ${E2E_OIDC.displayName}`;
const CALLBACK_CALL = '/api/meetcast-names-login.php';

const uniqueLogin = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Counts the callback calls the page makes (the code must go out once). */
function countCallbackCalls(page: Page) {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === CALLBACK_CALL) bodies.push(request.postData() ?? '');
  });
  return bodies;
}

/** From /login through the provider's pages: the login form, then (unless cancelled) consent. */
async function signInAtProvider(page: Page, login: string, options: { cancel?: boolean } = {}) {
  await page.goto('/login');
  await page.getByRole('button', { name: BUTTON }).click();
  await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/interaction/`));
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  if (options.cancel) await page.getByRole('link', { name: '[ Cancel ]' }).click();
  else await page.getByRole('button', { name: 'Continue' }).click();
}

test.describe('external sign-in', () => {
  test('button, provider login and consent pages, back to / signed in; the code goes out once', async ({ page }) => {
    const login = uniqueLogin('ada');
    const calls = countCallbackCalls(page);
    await page.goto('/signup');
    await expect(page.getByRole('button', { name: BUTTON })).toBeVisible();

    await signInAtProvider(page, login);
    await expect(page).toHaveURL(`${APP_URL}/`);
    await expect(page.getByRole('heading', { name: `Welcome, ${login}` })).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'meetcastUser');
    expect(cookie?.value).toMatch(/.{20,}/);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/token=[^&]+/);
    expect(calls[0]).toMatch(/state=[^&]+/);
    // The pending sign-in cookie was only for the callback call, and it is gone.
    expect((await page.context().cookies()).find((c) => c.name === 'meetcast_oidc')).toBeUndefined();

    // Back onto the callback page finds no code any more: nothing is sent, the user stays home.
    await page.goBack();
    await expect(page).toHaveURL(`${APP_URL}/`);
    await expect(page.getByRole('heading', { name: `Welcome, ${login}` })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: `Welcome, ${login}` })).toBeVisible();
    expect(calls).toHaveLength(1);

    // The account is the provider's: its e-mail, and the profile's section lists the provider.
    const token = cookie?.value ?? '';
    const methods = await page.request.post('/api/get-sign-in-methods.php', { form: { token } });
    expect(await methods.json()).toMatchObject({
      data: { data: { has_password: false, external: [{ provider: 'Test ID', email: `${login}@example.com` }] } },
    });
  });

  test('a reload while the code is on its way does not send it again', async ({ page }) => {
    let calls = 0;
    await page.route(`**${CALLBACK_CALL}`, async (route) => {
      calls += 1;
      // The first call is held: the reload below cancels it in the browser.
      if (calls > 1) await route.continue();
    });
    await signInAtProvider(page, uniqueLogin('reload'));
    await expect.poll(() => calls).toBe(1);
    await expect(page).toHaveURL(`${APP_URL}/meetcast-names-login`);
    await page.reload();
    await expect(page).toHaveURL(`${APP_URL}/login`);
    await page.waitForTimeout(500);
    expect(calls).toBe(1);
  });

  test('a refused sign-in shows the server message and goes to /login', async ({ page }) => {
    await page.goto('/meetcast-names-login?code=forged-code&state=forged-state');
    await expect(
      page.getByRole('alert').filter({ hasText: 'This sign-in has expired or was already used.' }),
    ).toBeVisible();
    await expect(page).toHaveURL(`${APP_URL}/login`);
    expect((await page.context().cookies()).find((c) => c.name === 'meetcastUser')).toBeUndefined();
  });

  test('cancelling at the provider shows the server message and goes to /login', async ({ page }) => {
    await signInAtProvider(page, uniqueLogin('cancel'), { cancel: true });
    await expect(
      page.getByRole('alert').filter({ hasText: 'The sign-in at Test ID was cancelled or refused.' }),
    ).toBeVisible();
    await expect(page).toHaveURL(`${APP_URL}/login`);
  });
});
