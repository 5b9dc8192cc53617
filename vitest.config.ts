import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/**/*.test.ts', 'scripts/**/*.test.ts', 'packages/**/*.test.ts', 'apps/**/*.test.tsx'],
    exclude: ['**/node_modules/**', 'e2e/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
