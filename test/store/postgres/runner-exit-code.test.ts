/**
 * A run with a failed test exits non-zero even when it started the embedded Postgres: the package
 * hooks `beforeExit` with a `process.exit(0)` of its own, which the global setup takes off again.
 * Without that, CI would pass a run whose Postgres tests failed.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../support/spawn-cli.js';

test('a failing test in a run that starts Postgres makes the run exit 1', () => {
  const name = `zz-exit-code-probe-${process.pid}.test.ts`;
  const file = join(PROJECT_ROOT, 'test', 'store', 'postgres', name);
  writeFileSync(file, "import { expect, test } from 'vitest';\ntest('fails on purpose', () => expect(1).toBe(2));\n");
  try {
    const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', `test/store/postgres/${name}`], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: 'true' } });
    expect(run.stdout + run.stderr).toMatch(/fails on purpose/);
    expect(run.status).toBe(1);
  } finally {
    rmSync(file, { force: true });
  }
}, 150_000);
