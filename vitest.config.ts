import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'e2e/**'],
    pool: 'forks',
    // Three files at a time on two cores: most server tests spend their time waiting on sockets,
    // timers, databases and outages they stage (15-30 s each), not on the processor (the whole run
    // passed at load average 25-30 with three, 2026-12-04; four timed out hooks at load 40-50).
    maxWorkers: 3,
    testTimeout: 30_000,
    // One retry in CI, as Playwright has: a shared two-core machine occasionally starves a test that
    // stages an outage or runs a composer; a real bug fails twice. A test that passes only on its retry
    // is named as flaky in the closing line (scripts/vitest-flaky-reporter.mjs, scripts/test-summary.mjs).
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts', 'scripts/**/*.test.ts', 'packages/**/*.test.ts'],
          // Each file builds its own app, database and Janus, and none mocks a module: a fork runs its
          // files one after another in one module graph instead of loading it again for each (~90 s of
          // the ~300 s these files took on two cores).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/**/*.test.ts', 'apps/web/**/*.test.tsx'],
          // These files mock modules (janus.js, i18n) and stub globals: each file gets a fresh module graph.
          isolate: true,
        },
      },
    ],
  },
});
