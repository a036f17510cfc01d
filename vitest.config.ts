import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'test/**/*.test.ts', 'shared/**/*.test.ts', 'addin/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own database and server; two cores, so keep parallelism modest.
    maxWorkers: 2,
    pool: 'forks',
  },
});
