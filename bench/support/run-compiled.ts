import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TSCONFIG = fileURLToPath(new URL('../tsconfig.compiled.json', import.meta.url));
// BENCH_OUT_DIR puts a checkout's build elsewhere (it must sit where node_modules resolves), so two
// checkouts sharing one node_modules do not run each other's code.
const OUT_DIR = process.env.BENCH_OUT_DIR ?? fileURLToPath(new URL('../../node_modules/.cache/mcp-sunset-bench/', import.meta.url));
const RESULTS_FILE = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));
// tsconfig.compiled.json's rootDir: the output mirrors the tree from here.
const TREE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Compiles server/ and bench/ with tsc and runs one bench module from the output in plain Node:
 * `module` is its source, `new URL('./run-budget.ts', import.meta.url)` from the script beside it,
 * and the output mirrors the tree, so `bench/budget/run-budget.ts` runs as `bench/budget/run-budget.js`.
 * Production runs tsc output; tsx's esbuild transform keeps function names by wrapping every
 * closure in a `__name()` call (an Object.defineProperty per closure created), which would bill
 * the sidecar — and the micro-benchmarks — for code that never ships.
 */
export async function runCompiled(module: URL): Promise<void> {
  const source = relative(TREE_ROOT, fileURLToPath(module));
  if (!source.startsWith(`bench${sep}`) || !source.endsWith('.ts') || !existsSync(fileURLToPath(module))) throw new Error(`not a bench module of this tree: ${module.href}`);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  process.stderr.write('compiling server/ and bench/ with tsc…\n');
  const build = spawnSync(process.execPath, [tsc, '-p', TSCONFIG, '--outDir', OUT_DIR, '--tsBuildInfoFile', join(OUT_DIR, '.tsbuildinfo')], { stdio: 'inherit' });
  // Type errors elsewhere (work in progress) still emit; only a failure to emit at all stops us.
  if (build.status !== 0) process.stderr.write(`tsc exited ${build.status}; running what it emitted\n`);
  // The output sits under node_modules/, where Node stops looking for the project's "type": "module".
  writeFileSync(join(OUT_DIR, 'package.json'), '{ "type": "module", "private": true }\n');
  // The store looks for migrations a few folders up from itself, as in the published layout.
  const link = join(OUT_DIR, 'migrations');
  if (!existsSync(link)) {
    rmSync(link, { force: true }); // a dangling link from a moved checkout
    symlinkSync(MIGRATIONS, link, 'dir');
  }
  const child = spawn(process.execPath, [join(OUT_DIR, source.replace(/\.ts$/, '.js'))], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS_FILE: RESULTS_FILE },
  });
  const code = await new Promise<number>((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  process.exitCode = code;
}
