import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { OIDC_SERVER_ENV } from './e2e/support/oidc';
import { APP_URL, MAIL_API_URL, OIDC_ISSUER } from './e2e/support/ports';

const CHROMIUM_PROJECT = { ...devices['Desktop Chrome'], channel: undefined };
const STREAMING_SPECS = /(live-streaming|connect-stream|viewer-chat|channel-player)\.spec\.ts$/;

/**
 * End-to-end suite: Debian's Chromium (never `npx playwright install`), a real SMTP sink, and the real
 * server serving the built web app on a fresh embedded database. `npm run test:e2e` builds first.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 60_000,
  // The machine is shared and often busy: allow rendering some slack before an expectation fails.
  expect: { timeout: 20_000 },
  fullyParallel: true,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  // One retry in CI: a shared 2-core machine occasionally starves a browser; a real bug fails twice.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: APP_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'chromium', use: CHROMIUM_PROJECT, testIgnore: STREAMING_SPECS },
    // A broadcast composer takes about a core: run the specs that go live after all the others, one at
    // a time, so that two composers and their browsers never starve each other on a two-core machine.
    {
      name: 'streaming',
      use: CHROMIUM_PROJECT,
      testMatch: STREAMING_SPECS,
      dependencies: ['chromium'],
      workers: 1,
    },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/support/mail-server.ts',
      url: `${MAIL_API_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node --import tsx e2e/support/oidc-provider.ts',
      url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node --import tsx e2e/support/app-server.ts',
      env: OIDC_SERVER_ENV,
      url: `${APP_URL}/readyz`,
      reuseExistingServer: false,
      timeout: 90_000,
      // E2E_SERVER_LOG=1 shows the server's log (set LOG_LEVEL=info for more than warnings).
      stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
      stderr: 'pipe',
    },
  ],
});
