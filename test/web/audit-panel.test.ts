/**
 * The audit trail on the dashboard, in headless Chromium against the real service: changes made
 * through the API with named tokens, listed newest first with who made them and what changed, and
 * the older ones a page further.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { legacyPlan } from '../support/enforcement-peers.js';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { startDashboardRig, type DashboardRig } from './dashboard-support.js';

const ALICE = 'alice-token-0123456789';
const CI = 'ci-pipeline-token-0123456789';

describe('the audit trail on the dashboard', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;

  const call = async (token: string, method: string, path: string, body: unknown) => {
    const response = await fetch(new URL(path, service.apiUrl), { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.ok, await response.clone().text()).toBe(true);
    return (await response.json()) as { id: number };
  };

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false, config: { adminTokens: [{ name: 'alice', token: ALICE }, { name: 'ci', token: CI }] } });
    ({ service, browser } = rig);
    const { id } = await call(ALICE, 'POST', '/api/v1/plans', legacyPlan({ name: 'Retire legacy' }));
    await call(CI, 'PATCH', `/api/v1/plans/${id}`, { retireDate: '2027-09-01' });
    await call(ALICE, 'POST', '/api/v1/pauses', { plans: [id], for: '2h', reason: 'Partner caught' });
    // More than one page of changes, so the older ones are a click away.
    for (let i = 0; i < 50; i += 1) await call(CI, 'PATCH', `/api/v1/plans/${id}`, { targetShare: 0.001 * (i + 1) });
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('lists the changes newest first with the token that made each and the fields it changed; older ones on the next page', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(service.apiUrl.href);
    // The token gate asks once; the page keeps it for the tab.
    await page.fill('#token-input', ALICE);
    await page.click('[data-testid="token-submit"]');
    const rows = page.locator('[data-testid="audit-row"]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(50);
    const first = await rows.first().locator('td').allTextContents();
    expect(first.slice(1, 4)).toEqual(['token:ci', 'Plan changed', expect.stringMatching(/^plan:\d+$/)]);
    expect(first[4]).toBe('targetShare: 0.049 → 0.05');
    await saveScreenshot(page, 'audit-trail');

    await page.click('[data-testid="audit-more"]');
    await page.locator('[data-testid="audit-row"][data-action="plan.create"]').waitFor();
    expect(await rows.count()).toBe(53);
    const texts = await Promise.all([50, 51, 52].map((i) => rows.nth(i).locator('td').allTextContents()));
    expect(texts.map((t) => t.slice(1, 3))).toEqual([
      ['token:alice', 'Pause started'],
      ['token:ci', 'Plan changed'],
      ['token:alice', 'Plan created'],
    ]);
    expect(texts[0]![4]).toBe('“Partner caught”');
    expect(texts[1]![4]).toMatch(/^retireDate: "\d{4}-\d{2}-\d{2}" → "2027-09-01"$/);
    expect(await page.locator('[data-testid="audit-more"]').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
