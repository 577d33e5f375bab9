/** The dashboard works under the API's security headers: no CSP violation, and its own changes pass the origin checks. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, type TestBrowser } from './browser.js';
import { openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

describe('the dashboard under its content security policy', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: true });
    ({ service, browser } = rig);
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('renders, evaluates alerts and archives a plan with no policy violation or page error', async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (globalThis as any).cspViolations = seen;
      (globalThis as any).document.addEventListener('securitypolicyviolation', (event: any) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const console: string[] = [];
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) console.push(message.text());
    });
    const documentResponse = page.waitForResponse((response) => new URL(response.url()).pathname === '/');
    await openDashboard(page, service.apiUrl);
    expect((await documentResponse).headers()['content-security-policy']).toContain("default-src 'self'");

    const evaluated = page.waitForResponse((response) => response.url().endsWith('/api/v1/alerts/evaluate'));
    await page.click('[data-testid="alerts-evaluate"]');
    expect((await evaluated).status()).toBe(200);

    page.once('dialog', (dialog) => void dialog.accept());
    const archived = page.waitForResponse((response) => response.request().method() === 'DELETE');
    await page.locator('[data-testid="plan-archive"]').first().click();
    expect((await archived).status()).toBe(200);

    expect(await page.evaluate(() => (globalThis as any).cspViolations)).toEqual([]);
    expect(console).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
