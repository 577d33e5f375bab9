import { defineConfig } from 'vitest/config';

/**
 * The interop suite (`npm run test:interop`): the sidecar in front of servers built on other
 * stacks' official MCP SDKs, the Python SDK first. Kept out of `npm test` because it needs python3
 * and a pinned package its global setup installs into its own virtual environment.
 */
export default defineConfig({
  test: {
    include: ['test/interop/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    setupFiles: ['test/support/validate-api-answers.ts'],
    globalSetup: ['test/interop/python-venv-global-setup.ts'],
  },
});
