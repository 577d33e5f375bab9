import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds, not assertions: many tests spawn the real CLI or real SDK peers, which a loaded
    // two-core machine starts slowly.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration suites start real servers on loopback; two cores do not like many at once.
    maxWorkers: 2,
  },
});
