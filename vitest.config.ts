import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/**/*.test.ts', 'scripts/**/*.test.ts', 'packages/**/*.test.ts', 'apps/**/*.test.tsx'],
    exclude: ['**/node_modules/**', 'e2e/**'],
    pool: 'forks',
    // Two files at a time even on two cores: most server tests spend their time waiting on sockets,
    // timers and databases, not on the processor.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
