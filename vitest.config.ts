import { configDefaults, defineConfig } from 'vitest/config';

/** Tests that need a Postgres server: only a run that includes one of them starts it. */
const POSTGRES_TESTS = ['test/store/contract/**/*.test.ts', 'test/store/postgres/**/*.test.ts'];

/** The interop suite runs apart, with its own Python (vitest.interop.config.ts, `npm run test:interop`). */
const INTEROP_TESTS = ['test/interop/**'];

/** The CLI built once per run, which spawnCli runs (test/support/cli-bundle-global-setup.ts). */
const CLI_BUNDLE = 'test/support/cli-bundle-global-setup.ts';

export default defineConfig({
  test: {
    // Bounds, not assertions: many tests spawn the real CLI or real SDK peers, which a loaded
    // two-core machine starts slowly.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration suites start real servers on loopback; two cores do not like many at once.
    maxWorkers: 2,
    // Every /api/v1 answer a test receives is checked against the OpenAPI document.
    setupFiles: ['test/support/validate-api-answers.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...POSTGRES_TESTS, ...INTEROP_TESTS],
          globalSetup: [CLI_BUNDLE],
        },
      },
      {
        extends: true,
        test: { name: 'postgres', include: POSTGRES_TESTS, globalSetup: [CLI_BUNDLE, 'test/support/postgres-global-setup.ts'] },
      },
    ],
  },
});
