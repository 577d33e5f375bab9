/**
 * What callers were told, on the dashboard, in headless Chromium against the real service: notices
 * sent by an alert run to a real webhook receiver, shown on the plan's timeline, in the dry run and in
 * the caller's dialog, where a contact made by hand is recorded too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { trafficCell } from '../store/temp-database.js';
import { legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import type { TestService } from '../support/start-test-service.js';
import { writeBatch } from '../support/write-batch.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { DAY_MS, isoDay, openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const TODAY = Date.parse(`${isoDay(Date.now())}T00:00:00Z`);

describe('what callers were told, on the dashboard', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;
  let receiver: WebhookReceiver;
  let planId: number;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    rig = await startDashboardRig({ seed: false, config: { alerts: { schedule: '0 0 1 1 *', webhooks: [{ name: 'outreach', url: receiver.url, format: 'slack' }], maxAttempts: 1, initialBackoffMs: 10 } } });
    ({ service, browser } = rig);
    const cells: TallyCell[] = [trafficCell({ minute: TODAY - 2 * DAY_MS, integration: 'tok_partner', count: 40 }), trafficCell({ minute: TODAY - DAY_MS, integration: 'anonymous', count: 5 })];
    await writeBatch(service.store!, { cells, integrations: [{ key: 'tok_partner', source: 'bearer-fingerprint', firstSeen: TODAY - 2 * DAY_MS, lastSeen: TODAY - 2 * DAY_MS, lastLegacySeen: TODAY - 2 * DAY_MS, clientInfo: undefined }] });
    const brownoutAt = TODAY + 5 * DAY_MS + 14 * 3_600_000;
    planId = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Told plan', noticeDays: [7], brownouts: [{ startsAt: new Date(brownoutAt).toISOString(), endsAt: new Date(brownoutAt + 3_600_000).toISOString(), note: null }] }))).id;
    const run = await fetch(new URL('/api/v1/alerts/evaluate', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(((await run.json()) as { notices: unknown[] }).notices).toHaveLength(1);
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
    await receiver?.close();
  });

  test('the timeline counts the notices, the dry run says who was told, and the caller dialog lists and records', async () => {
    // The Slack body is one line a person can read.
    const slack = receiver.received.map((r) => (r.body as { text?: string }).text ?? '').find((t) => t.startsWith('[NOTICE]'));
    expect(slack).toMatch(/^\[NOTICE\] tok_partner: in 7 days, plan "Told plan" refuses Legacy requests in a brownout from \S+ to \S+\. It sent 40 requests in scope over the last 30 days with 2025-06-18\. Policy: https:\/\//);

    const page = await browser.newPage();
    const errors = pageErrors(page);
    await openDashboard(page, service.apiUrl);
    const item = page.locator(`[data-testid="plan-item"][data-plan-id="${planId}"]`);
    await item.waitFor();
    const told = item.locator('[data-testid="timeline-window"][data-kind="brownout"] [data-testid="timeline-notices"]');
    expect(await told.textContent()).toBe('1 notice delivered');

    await item.locator('[data-testid="dry-run"] summary').click();
    await item.locator('[data-testid="dry-run-button"]').click();
    await item.locator('[data-testid="dry-run-caller"]').first().waitFor();
    expect(await item.locator('[data-testid="dry-run-caller"][data-integration="tok_partner"] [data-testid="dry-run-told"]').textContent()).toBe(`1 notice, last ${isoDay(Date.now())}`);
    expect(await item.locator('[data-testid="dry-run-caller"][data-integration="anonymous"] [data-testid="dry-run-told"]').textContent()).toBe('—');

    await page.locator('[data-testid="integration-row"][data-key="tok_partner"]').click();
    await page.locator('[data-testid="told-notice"]').waitFor();
    expect(await page.locator('[data-testid="told-notice"]').textContent()).toContain(`Notice (plan ${planId}): brownout on ${isoDay(TODAY + 5 * DAY_MS)}, 7 days before — delivered`);
    await page.click('[data-testid="contact-save"]');
    await page.locator('#contact-form-error [role="alert"]').waitFor();
    expect(await page.locator('#contact-form-error').textContent()).toContain('note');
    await page.selectOption('#contact-kind', 'call');
    await page.fill('#contact-note', 'Spoke to their lead: they move before the brownout');
    await page.click('[data-testid="contact-save"]');
    await page.locator('[data-testid="told-contact"]').waitFor();
    expect(await page.locator('[data-testid="told-contact"]').textContent()).toContain('Call by api (no admin token): Spoke to their lead');
    await saveScreenshot(page, 'caller-told');
    expect((await service.store!.listCallerContacts(['tok_partner'])).map((c) => c.kind)).toEqual(['call']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
