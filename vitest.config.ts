import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration suites start real servers on loopback; two cores do not like many at once.
    maxWorkers: 2,
  },
});
