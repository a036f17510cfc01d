// The benches that evaluate against a real server (test/harness.ts) run under vitest, which provides the test run's
// PostgreSQL (test/global-setup.ts: DATABASE_URL's, or an embedded one):
//   npx vitest run -c bench/vitest.config.ts bench/suggest-history.run.ts
// with the bench's options in the environment (SUGGEST_CORPUS, SUGGEST_SET, SUGGEST_MISSES=1, SUGGEST_QUICK=1).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: '.',
    include: ['bench/**/*.run.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
