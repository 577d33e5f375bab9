/**
 * Packs this repository as npm would publish it, without touching its dist/: the working tree is
 * copied (all but node_modules, which is linked, and the build outputs) into a temporary folder,
 * built there with `npm run build` and packed with `npm pack`. Tests that read dist/web meanwhile
 * never see it change.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

const run = promisify(execFile);

/** Not copied: installed packages (linked instead), build outputs, test leftovers, local databases. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'test-artifacts', '.data']);

/** One file of `npm pack --json`. */
export interface PackedFile {
  path: string;
  size: number;
  mode: number;
}

export interface PackedPackage {
  /** The tarball's absolute path. */
  tarball: string;
  files: PackedFile[];
  /** The package.json that was packed. */
  manifest: { name: string; version: string; bin?: Record<string, string>; exports?: Record<string, unknown>; dependencies?: Record<string, string> };
}

/** The environment for npm run inside a test: without what `npm test` sets about this project. */
export function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package_|lifecycle_|command$|config_local_prefix$|config_call$)/.test(key) || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Copies the working tree into `dir/source`, builds it and packs it into `dir/pack`. */
export async function buildPackage(dir: string): Promise<PackedPackage> {
  const source = join(dir, 'source');
  cpSync(PROJECT_ROOT, source, {
    recursive: true,
    filter: (path) => !NOT_COPIED.has(relative(PROJECT_ROOT, path).split(sep)[0]!),
  });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  await run('npm', ['run', 'build'], { cwd: source, env: npmEnv(), timeout: 240_000 });
  const pack = join(dir, 'pack');
  mkdirSync(pack);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', pack], { cwd: source, env: npmEnv(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as { filename: string; files: PackedFile[] }[];
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as PackedPackage['manifest'];
  return { tarball: join(pack, packed!.filename), files: packed!.files, manifest };
}
