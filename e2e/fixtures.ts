/* eslint-disable no-empty-pattern -- Playwright fixtures without dependencies take an empty pattern. */
import { spawn } from 'node:child_process';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN_ACCOUNT } from './support/accounts';
import { createAccount, logIn, readCode, type Account } from './support/api';
import { APP_URL } from './support/ports';

export { expect, readCode };
export type { Account };

/** Puts a session token into the `meetcastUser` cookie, the way the app keeps it. */
export async function useSessionCookie(context: BrowserContext, token: string) {
  await context.addCookies([{ name: 'meetcastUser', value: token, url: APP_URL, sameSite: 'Lax' }]);
}

/** Signs in through the login page. */
export async function signInThroughPage(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${APP_URL}/`);
}

interface WorkerFixtures {
  /** One administrator token per worker, for suites that open many pages as the administrator. */
  adminToken: string;
  /**
   * A call must also work on a busy machine. The workers of a project whose metadata says
   * `cpuHog` (and every worker with E2E_CPU_HOG=1, for a run by hand) have a process busy-looping
   * beside them from their first test to their last.
   */
  cpuHog: void;
}

interface Fixtures {
  /** A fresh confirmed regular account (signed up through the API and the real mail). */
  account: Account;
  /** The administrator account (first account of the installation), with a fresh token. */
  admin: Account;
  /** Opens the app signed in as `account` (cookie set, home page loaded). */
  signedInPage: Page;
  /** Opens the app signed in as the administrator. */
  adminPage: Page;
  /** Signs up a fresh account through the API. */
  signUp: (options?: Partial<Pick<Account, 'username' | 'email' | 'password'>>) => Promise<Account>;
  /** Puts the worker's administrator session into the page's context (no navigation). */
  adminSession: (page: Page) => Promise<void>;
  /** Puts an account's session into the page's browser context and opens a path. */
  signIn: (page: Page, account: Account, path?: string) => Promise<void>;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  cpuHog: [
    async ({}, use, workerInfo) => {
      if (!workerInfo.project.metadata?.cpuHog && process.env.E2E_CPU_HOG !== '1') return use();
      const hog = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
      await use();
      hog.kill('SIGKILL');
    },
    { scope: 'worker', auto: true },
  ],
  adminToken: [
    async ({}, use) => {
      await use((await logIn(ADMIN_ACCOUNT.email, ADMIN_ACCOUNT.password)).token);
    },
    { scope: 'worker' },
  ],
  adminSession: async ({ adminToken }, use) => {
    await use((page) => useSessionCookie(page.context(), adminToken));
  },
  signUp: async ({}, use) => {
    await use((options) => createAccount(options));
  },
  account: async ({}, use) => {
    await use(await createAccount());
  },
  admin: async ({}, use) => {
    await use(await logIn(ADMIN_ACCOUNT.email, ADMIN_ACCOUNT.password));
  },
  signIn: async ({}, use) => {
    await use(async (page, account, path = '/') => {
      await useSessionCookie(page.context(), account.token);
      await page.goto(path);
    });
  },
  signedInPage: async ({ page, account, signIn }, use) => {
    await signIn(page, account);
    await use(page);
  },
  adminPage: async ({ page, admin, signIn }, use) => {
    await signIn(page, admin);
    await use(page);
  },
});
