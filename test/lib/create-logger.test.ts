import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

/** Logs one line from a fresh process, since the logger writes straight to file descriptor 2. */
function logged(storeLocation: string | undefined, fields: Record<string, unknown>, message: string): string {
  const module = pathToFileURL(join(PROJECT_ROOT, 'server', 'lib', 'create-logger.ts')).href;
  const script = `import { createLogger } from ${JSON.stringify(module)};
const fields = ${JSON.stringify(fields)};
createLogger('info', ${JSON.stringify(storeLocation)}).error({ ...fields, err: new Error(fields.error) }, ${JSON.stringify(message)});`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr;
}

describe('createLogger', () => {
  test('writes every field of a line, error stacks included, with the store location\'s secrets masked', () => {
    const line = logged('postgres://u:hunter22@db/mcp', { error: 'auth failed for hunter22', where: 'postgres://u:hunter22@db/mcp' }, 'cannot use hunter22');
    expect(line).not.toContain('hunter22');
    const parsed = JSON.parse(line);
    expect(parsed).toMatchObject({ msg: 'cannot use ***', where: 'postgres://u:***@db/mcp', err: { message: 'auth failed for ***' } });
  });

  test('changes nothing when the location is a path', () => {
    const parsed = JSON.parse(logged('/srv/hunter22.db', { error: 'x', where: '/srv/hunter22.db' }, 'at /srv/hunter22.db'));
    expect(parsed).toMatchObject({ msg: 'at /srv/hunter22.db', where: '/srv/hunter22.db' });
  });
});
