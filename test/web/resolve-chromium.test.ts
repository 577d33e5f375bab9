import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { resolveChromium } from './resolve-chromium.js';

describe('resolveChromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-resolve-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('takes the browser MCP_SUNSET_CHROMIUM names before any other', async () => {
    const browser = join(dir, 'my-chromium');
    writeFileSync(browser, '#!/bin/sh\n');
    chmodSync(browser, 0o755);
    expect(await resolveChromium({ MCP_SUNSET_CHROMIUM: browser })).toEqual({ executablePath: browser, source: 'MCP_SUNSET_CHROMIUM' });
  });

  test('refuses an MCP_SUNSET_CHROMIUM that names nothing, saying which path', async () => {
    const missing = join(dir, 'no-such-browser');
    await expect(resolveChromium({ MCP_SUNSET_CHROMIUM: missing })).rejects.toThrow(missing);
  });
});
