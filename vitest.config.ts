import { configDefaults, defineConfig } from 'vitest/config';

const include = ['server/**/*.test.ts', 'test/**/*.test.ts', 'shared/**/*.test.ts', 'addin/**/*.test.{ts,tsx}'];
// Tests that drive Chromium through whole pages (load, sign-in, axe, screenshots): at CI's load (7 to 38 on two
// cores) one page with its checks takes up to 30 s, several times what it takes on an idle machine.
const browser = ['addin/testing/**/*.test.ts'];
// Files that measure another caller's latency under a load they make themselves: they run after every other
// file, alone, so that the load they measure is theirs and not the rest of the suite's.
const alone = ['test/fairness.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // One PostgreSQL server and a migrated template database for the whole run (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    hookTimeout: 60_000,
    // Each file starts its own database and server; two cores, so keep parallelism modest.
    maxWorkers: 2,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include,
          exclude: [...configDefaults.exclude, ...alone, ...browser],
          sequence: { groupOrder: 0 },
        },
      },
      // A browser test's budget is four such pages; one that loads more says so with its own.
      { extends: true, test: { name: 'browser', include: browser, testTimeout: 120_000, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'alone', include: alone, sequence: { groupOrder: 1 } } },
    ],
  },
});
