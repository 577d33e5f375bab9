/**
 * Pausing and resuming on the dashboard, in headless Chromium against the real service: a plan's
 * pause through its dialog (the server's word on a bad span beside the field), the pause on the
 * plan's line and timeline, resuming it, and the switch for every plan at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const HOUR = 3_600_000;

describe('pausing a plan on the dashboard', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;
  let drillId: number;
  let sseId: number;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    ({ service, browser } = rig);
    const brownouts = [{ startsAt: new Date(Date.now() - HOUR).toISOString(), endsAt: new Date(Date.now() + 3 * HOUR).toISOString(), note: 'drill' }];
    drillId = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Brownout drill', brownouts }))).id;
    sseId = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Retire HTTP+SSE', scope: { kind: 'transport', value: 'http+sse' } }))).id;
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Watch 2025-03-26', action: 'observe', scope: { kind: 'version', value: '2025-03-26' } }));
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('a plan is paused from its dialog, shown paused on its line and timeline, and resumed with one click', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await openDashboard(page, service.apiUrl);
    const item = page.locator(`[data-testid="plan-item"][data-plan-id="${drillId}"]`);
    await item.waitFor();
    expect(await item.locator('[data-testid="plan-phase"]').textContent()).toBe('Brownout');
    // An observe-only plan refuses nothing: there is nothing of it to pause.
    expect(await page.locator('[data-testid="plan-item"]', { hasText: 'Watch 2025-03-26' }).locator('[data-testid="plan-pause"]').count()).toBe(0);

    await item.locator('[data-testid="plan-pause"]').click();
    expect(await page.locator('#pause-dialog-scope').textContent()).toBe('Plan “Brownout drill”.');
    await page.fill('#pause-for', 'forever');
    await page.fill('#pause-reason', 'Partner caught in the brownout');
    await page.click('[data-testid="pause-submit"]');
    await page.locator('#pause-form-error [role="alert"]').waitFor();
    expect(await page.getAttribute('#pause-for', 'aria-invalid')).toBe('true');
    expect(await page.locator('#pause-form-error').textContent()).toContain('for: expected a span such as 30m');
    expect(await service.store!.listPlanPauses()).toEqual([]);

    await page.fill('#pause-for', '2h');
    await page.click('[data-testid="pause-submit"]');
    await item.locator('[data-testid="plan-paused"]').waitFor();
    expect(await item.locator('[data-testid="plan-paused"]').textContent()).toMatch(/^Paused until .+ by api \(no admin token\): Partner caught in the brownout\./);
    expect(await item.locator('[data-testid="plan-phase"]').textContent()).toBe('Paused');
    const window = item.locator('[data-testid="timeline-window"][data-kind="pause"]');
    expect(await window.getAttribute('data-state')).toBe('in-force');
    expect(await window.textContent()).toContain('Paused — Partner caught in the brownout (by api (no admin token))');
    expect(await page.locator('[data-testid="pauses-banner"]').textContent()).toMatch(/^1 plan is paused: Brownout drill until /);
    // The store holds what the dashboard showed, and this node already obeys it.
    const [stored] = await service.store!.listPlanPauses({ planId: drillId });
    expect(stored!.endsAt - stored!.startedAt).toBe(2 * HOUR);
    expect(service.health().policy.pausedPlans.map((p: { id: number }) => p.id)).toEqual([drillId]);
    await saveScreenshot(page, 'plan-paused');

    await item.locator('[data-testid="plan-resume"]').click();
    await item.locator('[data-testid="plan-pause"]').waitFor();
    expect(await item.locator('[data-testid="plan-paused"]').count()).toBe(0);
    expect(await item.locator('[data-testid="plan-phase"]').textContent()).toBe('Brownout');
    expect(await window.getAttribute('data-state')).toBe('past');
    expect(await window.textContent()).toContain('ended early by api (no admin token)');
    expect(await page.locator('[data-testid="pauses-banner"]').textContent()).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('one switch pauses every plan that acts, and one resumes them all', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await openDashboard(page, service.apiUrl);
    await page.locator('[data-testid="plan-item"]').first().waitFor();
    await page.click('[data-testid="pause-all"]');
    expect(await page.locator('#pause-dialog-scope').textContent()).toContain('Every plan that does more than observe');
    await page.fill('#pause-for', '30m');
    await page.fill('#pause-reason', 'Incident 42');
    await page.click('[data-testid="pause-submit"]');
    await page.locator('[data-testid="resume-all"]').waitFor();
    expect(await page.locator('[data-testid="pauses-banner"]').textContent()).toMatch(/^2 plans are paused: Brownout drill until .+; Retire HTTP\+SSE until /);
    expect(await page.locator('[data-testid="plan-paused"]').count()).toBe(2);
    expect((await service.store!.listPlanPauses({ endedSince: Date.now() })).map((p) => p.planId)).toEqual([drillId, sseId]);
    await saveScreenshot(page, 'plans-paused-all');

    await page.click('[data-testid="resume-all"]');
    await page.locator('[data-testid="resume-all"]').waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid="plan-paused"]').count()).toBe(0);
    expect(await service.store!.listPlanPauses({ endedSince: Date.now() })).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
