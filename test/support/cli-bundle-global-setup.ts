import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT } from './spawn-cli.js';
import { buildCliBundle } from './stage-cli-bundle.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI built once for the run; spawnCli runs it instead of compiling the source in each process. */
    cliEntry: string;
  }
}

/**
 * Builds server/cli/main.ts once per run, into a folder of the checkout two levels below its root, so
 * that the migrations, docs/openapi.json, dist/web and node_modules are found from it as from source.
 * A spawned CLI then starts in about a third of the time and CPU that compiling it under tsx takes,
 * which is what kept tests that run it many times slow and, on a loaded machine, unsteady.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const parent = join(PROJECT_ROOT, 'test-artifacts');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'cli-'));
  const entry = join(dir, 'main.mjs');
  await buildCliBundle(entry, true);
  project.provide('cliEntry', entry);
  return () => rmSync(dir, { recursive: true, force: true });
}
