/**
 * An empty project that installs the packed tarball the way a user would (`npm install <tarball>`),
 * plus what its Express app needs, from the npm cache that the repository's `npm ci` filled.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { cutLockfile, lockedVersion } from './cut-lockfile.js';
import { npmEnv } from './build-package.js';

const run = promisify(execFile);

/** What the consumer's own app.ts imports beside mcp-sunset, and the types it compiles against. */
const CONSUMER_DEPENDENCIES = ['express', '@types/express', '@types/node', '@modelcontextprotocol/server', '@modelcontextprotocol/node', 'zod'];

export interface ConsumerProject {
  dir: string;
  /** `--offline` when the cache held everything; `--prefer-offline` when npm had to ask the registry. */
  installedWith: '--offline' | '--prefer-offline';
}

/**
 * better-sqlite3's install script (`prebuild-install || node-gyp rebuild`) fetches its prebuilt
 * binary from GitHub releases, which no npm cache holds; without that it compiles SQLite from source
 * (about 50 s, a C++ toolchain and the Node headers). The binary the repository's `npm ci` got for
 * this very Node and version is offered instead as a local prebuild, so the script still runs and
 * installs a prebuilt binary, offline and fast. Named as prebuild-install looks for it (glibc Linux,
 * macOS, Windows; elsewhere the name misses and the script falls back to its usual ways).
 */
function stageLocalPrebuild(dir: string): Promise<unknown> {
  const packageDir = join(PROJECT_ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(dir, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  return run('tar', ['-czf', join(dir, name), '-C', packageDir, 'build/Release/better_sqlite3.node']);
}

/** Creates the project in `dir`, installs `tarball` (whose dependencies are `dependencies`) into it. */
export async function installConsumer(dir: string, tarball: string, dependencies: Record<string, string>): Promise<ConsumerProject> {
  const repoLock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8'));
  mkdirSync(dir);
  await run('npm', ['init', '-y'], { cwd: dir, env: npmEnv() });
  const own = Object.fromEntries(CONSUMER_DEPENDENCIES.map((name) => [name, lockedVersion(repoLock, name)]));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  // npm 11 asks a project to allow a dependency's install script, as this repository allows it.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, private: true, type: 'module', dependencies: own, allowScripts: { 'better-sqlite3': true } }, null, 2));
  const lock = cutLockfile(repoLock, [...Object.keys(dependencies), ...CONSUMER_DEPENDENCIES], own, manifest.name);
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  const prebuilds = join(dir, '.prebuilds');
  await stageLocalPrebuild(prebuilds);
  const env = npmEnv({ npm_config_better_sqlite3_local_prebuilds: prebuilds });
  const install = (mode: ConsumerProject['installedWith']) => run('npm', ['install', mode, '--no-audit', '--no-fund', tarball], { cwd: dir, env, timeout: 240_000 });
  try {
    await install('--offline');
    return { dir, installedWith: '--offline' };
  } catch (error) {
    // A tarball the cache lacks (ENOTCACHED): the registry supplies it, the cache the rest.
    process.stderr.write(`offline install failed, retrying with --prefer-offline: ${String((error as { stderr?: string }).stderr ?? error)}\n`);
    await install('--prefer-offline');
    return { dir, installedWith: '--prefer-offline' };
  }
}
