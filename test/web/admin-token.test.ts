/** The dashboard against a service that has an admin token: it asks once, then loads. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { startDashboardRig, waitForData, type DashboardRig } from './dashboard-support.js';

const ADMIN_TOKEN = 'dashboard-test-admin-token-1';

describe('the dashboard with an admin token', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: true, adminToken: ADMIN_TOKEN });
    ({ service, browser } = rig);
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('asks for the token once, keeps it for the tab, and loads the data after it is entered', async () => {
    const page = await browser.newPage();
    await page.goto(service.apiUrl.href);
    const form = page.locator('[data-testid="token-form"]');
    await form.waitFor({ state: 'visible' });
    expect(await page.getAttribute('[data-testid="share-panel"]', 'data-loaded')).not.toBe('true');
    await saveScreenshot(page, 'token-prompt');

    await page.fill('[data-testid="token-input"]', 'not-the-admin-token-at-all');
    await page.click('[data-testid="token-submit"]');
    await page.locator('#token-error [role="alert"]').waitFor();
    expect(await page.textContent('#token-error')).toContain('not accepted');

    await page.fill('[data-testid="token-input"]', ADMIN_TOKEN);
    await page.click('[data-testid="token-submit"]');
    await waitForData(page);
    expect(await form.isVisible()).toBe(false);
    expect(await page.getAttribute('[data-testid="plan-status-pill"]', 'data-status')).toBe('off-track');
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('mcp-sunset.admin-token'))).toBe(ADMIN_TOKEN);

    await page.reload();
    await waitForData(page);
    expect(await form.isVisible()).toBe(false);
    await saveScreenshot(page, 'token-accepted');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
