import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { resolveChromium } from './resolve-chromium.js';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT_DIR = resolve('test-artifacts', 'screenshots');
const ERRORS = new WeakMap<Page, string[]>();

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab (its own sessionStorage) at the given viewport. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh user-data dir, removed on close. */
export async function launchBrowser(): Promise<TestBrowser> {
  const binary = await resolveChromium();
  const userDataDir = mkdtempSync(join(tmpdir(), 'mcp-sunset-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: binary.executablePath,
    env: { ...process.env, ...binary.env },
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 1000 },
    timezoneId: 'UTC',
    locale: 'en-US',
  });
  return {
    context,
    async newPage(viewport) {
      const page = await context.newPage();
      if (viewport !== undefined) await page.setViewportSize(viewport);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      ERRORS.set(page, errors);
      return page;
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Uncaught exceptions the page threw so far. */
export function pageErrors(page: Page): string[] {
  return ERRORS.get(page) ?? [];
}

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
