import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** Where a browser binary comes from, and the environment it needs. */
export interface ChromiumBinary {
  executablePath: string;
  source: 'MCP_SUNSET_CHROMIUM' | 'system' | '@sparticuz/chromium';
  env?: Record<string, string>;
}

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * An explicitly configured browser first, then a system one, then the Chromium that ships inside the
 * `@sparticuz/chromium` npm package, so that `npm ci && npm test` needs nothing from the machine.
 */
export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumBinary> {
  const configured = env.MCP_SUNSET_CHROMIUM;
  if (configured !== undefined && configured !== '') {
    if (!existsSync(configured)) throw new Error(`MCP_SUNSET_CHROMIUM names ${configured}, which does not exist`);
    return { executablePath: configured, source: 'MCP_SUNSET_CHROMIUM' };
  }
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path));
  if (system !== undefined) return { executablePath: system, source: 'system' };
  return unpackPackagedChromium();
}

/**
 * The package inflates its brotli archives into os.tmpdir() and takes a bare `chromium` there as done,
 * which two test workers starting at once would race on. So it inflates into a private staging
 * directory (its own TMPDIR, in a child process) that is then renamed into place: a rename either
 * wins whole or finds the other worker's finished copy.
 */
async function unpackPackagedChromium(): Promise<ChromiumBinary> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@sparticuz/chromium');
  const packageRoot = join(dirname(entry), '..', '..');
  const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  const dir = join(tmpdir(), `mcp-sunset-chromium-${version}`);
  const executablePath = join(dir, 'chromium');
  if (!existsSync(executablePath)) {
    const staging = mkdtempSync(join(tmpdir(), 'mcp-sunset-chromium-unpack-'));
    try {
      const script = `const { default: chromium } = await import(${JSON.stringify(pathToFileURL(entry).href)}); await chromium.executablePath();`;
      await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: staging } });
      // The shipped fonts.conf names /tmp/fonts; this one names where the fonts really are, and nothing
      // of the machine's, so pages render alike on every machine.
      writeFileSync(
        join(staging, 'fonts', 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
      );
      renameSync(staging, dir);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(executablePath)) throw error;
    }
  }
  return { executablePath, source: '@sparticuz/chromium', env: { FONTCONFIG_FILE: join(dir, 'fonts', 'fonts.conf') } };
}
