/**
 * Builds the dashboard: one minified ES module bundle per page, web/src/main.ts (chart.js and its
 * date adapter included, so the page works offline) and web/src/digest-page.ts (the digest's print
 * view), plus their HTML and stylesheets, into `outDir`.
 * `tsx web/build.ts` runs it; the API serves the result from dist/web.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const WEB_DIR = dirname(fileURLToPath(import.meta.url));
const PACKAGE_DIR = dirname(WEB_DIR);
const STATIC_FILES = ['index.html', 'digest.html', 'styles.css', 'digest.css'] as const;
/** Each page's entry in web/src, bundled to the script its HTML loads. */
const ENTRY_POINTS = { main: 'main.ts', digest: 'digest-page.ts' } as const;

/**
 * Bundles the dashboard into `outDir` (relative to the package root) and returns its absolute
 * path. Files are written beside it and renamed into place, so a server reading the folder (or a
 * second build running at once) never sees half a file.
 */
export async function buildDashboard(outDir = 'dist/web', options: { sourcemap?: boolean } = {}): Promise<string> {
  const out = resolve(PACKAGE_DIR, outDir);
  mkdirSync(out, { recursive: true });
  const staging = mkdtempSync(join(out, '.build-'));
  try {
    await bundleInto(staging, options.sourcemap ?? false);
    for (const file of readdirSync(staging)) renameSync(join(staging, file), join(out, file));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return out;
}

async function bundleInto(out: string, sourcemap: boolean): Promise<void> {
  await build({
    entryPoints: Object.entries(ENTRY_POINTS).map(([name, file]) => ({ in: join(WEB_DIR, 'src', file), out: name })),
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  for (const file of STATIC_FILES) copyFileSync(join(WEB_DIR, file), join(out, file));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const out = await buildDashboard(args.find((arg) => !arg.startsWith('--')), { sourcemap: args.includes('--sourcemap') });
  process.stdout.write(`dashboard built into ${out}\n`);
}
