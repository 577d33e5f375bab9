/** The dashboard of a fresh install: no traffic, no plans, and it says what to do next. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

describe('the dashboard before any traffic or plan', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    ({ service, browser } = rig);
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('says what to do next instead of drawing nothing', async () => {
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    expect(await page.textContent('[data-testid="share-empty"]')).toBe('No traffic counted yet — point a client at the sidecar.');
    expect(await page.textContent('[data-testid="volume-empty"]')).toBe('No traffic counted yet — point a client at the sidecar.');
    expect(await page.textContent('[data-testid="plans-empty"]')).toBe('No plans yet — create one.');
    expect(await page.textContent('[data-testid="integrations-empty"]')).toBe('No callers seen yet — point a client at the sidecar.');
    expect(await page.textContent('[data-testid="plan-reason"]')).toContain('No plans yet');
    await page.locator('[data-testid="alerts-empty"], [data-testid="alerts-unavailable"]').first().waitFor();
    await saveScreenshot(page, 'empty');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
