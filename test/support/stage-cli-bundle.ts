import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from './spawn-cli.js';

export interface StagedCli {
  /** The CLI's entry point, built from server/cli/main.ts. */
  entry: string;
  dir: string;
  dispose(): void;
}

/**
 * Bundles server/cli/main.ts into one ES module at `outfile`. better-sqlite3, a native addon, stays
 * outside: it is loaded from the nearest node_modules at run time. A source map, when asked for,
 * goes beside the bundle, never inside it (an inline one triples what each process reads).
 */
export async function buildCliBundle(outfile: string, sourcemap = false): Promise<void> {
  await build({
    entryPoints: [join(PROJECT_ROOT, 'server', 'cli', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap,
    logLevel: 'silent',
  });
}

/** The one dependency esbuild cannot inline (a native addon), and what it loads at run time. */
const NATIVE_PACKAGES = ['better-sqlite3', 'bindings', 'file-uri-to-path'];

/**
 * The CLI, bundled with its migrations and its native SQLite binding into a world-readable temporary
 * folder. A process that drops to another user must be able to load its own code, and the checkout
 * may sit under a folder only its owner can enter.
 */
export async function stageCliBundle(): Promise<StagedCli> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-cli-'));
  try {
    const entry = join(dir, 'cli', 'main.mjs');
    await buildCliBundle(entry);
    cpSync(join(PROJECT_ROOT, 'migrations'), join(dir, 'migrations'), { recursive: true });
    for (const name of NATIVE_PACKAGES) {
      const from = join(PROJECT_ROOT, 'node_modules', name);
      // Sources and intermediate objects of the addon stay behind; the loader needs only the .node file.
      cpSync(from, join(dir, 'node_modules', name), {
        recursive: true,
        filter: (path) => !/[/\\](deps|src|obj|obj\.target)([/\\]|$)/.test(path.slice(from.length)),
      });
    }
    chmodSync(dir, 0o755);
    return { entry, dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
