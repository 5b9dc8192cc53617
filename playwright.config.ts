import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { OIDC_SERVER_ENV } from './e2e/support/oidc';
import { APP_URL, MAIL_API_URL, OIDC_ISSUER } from './e2e/support/ports';

const CHROMIUM_PROJECT = { ...devices['Desktop Chrome'], channel: undefined };
/** Tests that run a broadcast composer (about a core of its own). */
const COMPOSER = /@composer/;
/** Multi-participant calls that must keep their video on a busy machine, and a Janus restart. */
const UNDER_LOAD = /@under-load/;
/** The call tests: three or four browsers each, with cameras. */
const CALL_FILES = ['room*.spec.ts', 'two-processes.spec.ts'];

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
  // One retry in CI: a shared 2-core machine occasionally starves a browser; a real bug fails twice. A
  // test that passes only on its retry is named as flaky in the closing line (scripts/test-summary.mjs).
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
  // The suite is sized for a two-core machine. Every test takes its share of the cores, so the heavy
  // kinds are kept apart: the composers first, one at a time and alone (a composer beside the other
  // tests starved both on a slower two-core machine: the same tests took 2-4 times as long and the
  // page loads beside it timed out); then the calls one at a time beside everything else on the
  // other worker (two calls at once took 2.5 times as long each, 2026-12-01: more time in all than
  // one after the other); and the calls under load last, alone with the process that busy-loops
  // beside them (e2e/fixtures.ts, `cpuHog`).
  projects: [
    { name: 'streaming', use: CHROMIUM_PROJECT, grep: COMPOSER, workers: 1 },
    {
      name: 'calls',
      use: CHROMIUM_PROJECT,
      testMatch: CALL_FILES,
      grepInvert: [COMPOSER, UNDER_LOAD],
      dependencies: ['streaming'],
      workers: 1,
    },
    {
      name: 'chromium',
      use: CHROMIUM_PROJECT,
      testIgnore: CALL_FILES,
      grepInvert: [COMPOSER, UNDER_LOAD],
      dependencies: ['streaming'],
    },
    {
      name: 'under-load',
      use: CHROMIUM_PROJECT,
      grep: UNDER_LOAD,
      dependencies: ['chromium', 'calls'],
      workers: 1,
      metadata: { cpuHog: true },
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
