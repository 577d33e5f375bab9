import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT } from './spawn-cli.js';

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
  await build({
    entryPoints: [join(PROJECT_ROOT, 'server', 'cli', 'main.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // A native addon cannot be inlined: it is loaded from the checkout's node_modules.
    external: ['better-sqlite3'],
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Beside the bundle, not in it: an inline map would triple what each process reads and parses.
    sourcemap: true,
    logLevel: 'silent',
  });
  project.provide('cliEntry', entry);
  return () => rmSync(dir, { recursive: true, force: true });
}
