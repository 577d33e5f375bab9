/**
 * The dashboard in headless Chromium against the real service, seeded with the demo history:
 * what the charts draw is what the API answered, and the forms write through the API.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestService } from '../support/start-test-service.js';
import { pageErrors, saveScreenshot, type TestBrowser } from './browser.js';
import { DAY_MS, isoDay, openDashboard, readChart, recordApiCalls, startDashboardRig, waitForData, type DashboardRig } from './dashboard-support.js';

describe('the dashboard', () => {
  let rig: DashboardRig;
  let service: TestService;
  let browser: TestBrowser;
  let demoPlanId: number;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: true });
    ({ service, browser } = rig);
    demoPlanId = rig.demoPlanId!;
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('draws the share curve, its trend, target and retire date exactly as the API answered', async () => {
    const page = await browser.newPage();
    const calls = recordApiCalls(page);
    await openDashboard(page, service.apiUrl);
    expect(await page.getAttribute('[data-testid="share-panel"]', 'data-plan-id')).toBe(String(demoPlanId));

    const { body: share } = await service.api(calls.get('/api/v1/share')!);
    expect(calls.get('/api/v1/share')).toContain(`plan=${demoPlanId}`);
    const chart = await readChart(page, 'share');
    const byKey = new Map(chart.datasets.map((d) => [d.key, d]));
    expect(byKey.get('share')!.data).toEqual(share.series.map((p: any) => ({ x: Date.parse(p.start), y: p.share })));
    expect(byKey.get('trend')!.data).toEqual(share.trend.line.map((p: any) => ({ x: Date.parse(p.start), y: p.share })));
    expect(byKey.get('trend')!.data.length).toBeGreaterThan(3);
    expect(new Set(byKey.get('target')!.data.map((p) => p.y))).toEqual(new Set([share.target]));
    // The demo plan's curve is flat: no crossing to mark, and the header says so.
    expect(share.trend.flat).toBe(true);
    expect(byKey.get('projection')!.data).toEqual([]);
    expect(chart.markers.lines).toContainEqual(expect.objectContaining({ at: Date.parse(`${share.plan.retireDate}T00:00:00Z`), label: `Retire ${share.plan.retireDate}` }));

    // The labels say which requests the share counts: the demo plan's basis, work requests.
    expect(share.basis).toBe('work-requests');
    expect(byKey.get('share')!.label).toContain('work requests');
    expect(await page.textContent('#share-title')).toContain('share of served work requests');

    // Refusals, failures, probes and negotiation are drawn beside the share, in their own chart.
    const outcomes = await readChart(page, 'outcomes');
    expect(outcomes.datasets.map((d) => d.key)).toEqual(['refused', 'failed', 'probes', 'negotiation']);
    expect(outcomes.datasets[2]!.data).toEqual(share.series.map((p: any) => ({ x: Date.parse(p.start), y: p.probes })));
    expect(outcomes.datasets[3]!.data).toEqual(share.series.map((p: any) => ({ x: Date.parse(p.start), y: p.negotiation })));
    expect(outcomes.datasets[3]!.data.some((p) => (p.y ?? 0) > 0)).toBe(true);

    expect(await page.getAttribute('[data-testid="plan-status-pill"]', 'data-status')).toBe('off-track');
    expect(await page.textContent('[data-testid="plan-reason"]')).toBe(share.plan.status.reason);
    expect(await page.textContent('[data-testid="projected-date"]')).toBe('None: the curve is flat');
    expect(await page.textContent('[data-testid="retire-date"]')).toBe(share.plan.retireDate);
    expect(await page.textContent('[data-testid="current-share"]')).toBe(`${(share.currentShare * 100).toFixed(2)}%`);

    const { body: traffic } = await service.api(calls.get('/api/v1/traffic')!);
    expect(calls.get('/api/v1/traffic')).toMatch(/groupBy=era.*kind=request|kind=request.*groupBy=era/);
    const volume = await readChart(page, 'volume');
    expect(volume.datasets.map((d) => d.key).sort()).toEqual(Object.keys(traffic.totals).sort());
    for (const dataset of volume.datasets) {
      expect(dataset.data).toEqual(traffic.series.map((p: any) => ({ x: Date.parse(p.start), y: p.counts[dataset.key] ?? 0 })));
    }
    await saveScreenshot(page, 'share-curve');

    // The volume switch refetches grouped by transport.
    await page.click('[data-testid="volume-groupby"] button[data-value="transport"]');
    await page.waitForFunction(() => (globalThis as any).mcpSunsetCharts.volume.data.datasets.some((d: any) => d.key === 'http+sse'));
    await page.locator('[data-testid="volume-panel"][data-loaded="true"]').waitFor();
    expect(calls.get('/api/v1/traffic')).toContain('groupBy=transport');
    const { body: byTransport } = await service.api(calls.get('/api/v1/traffic')!);
    const transports = await readChart(page, 'volume');
    expect(transports.datasets.map((d) => d.key).sort()).toEqual(Object.keys(byTransport.totals).sort());
    for (const dataset of transports.datasets) {
      expect(dataset.data).toEqual(byTransport.series.map((p: any) => ({ x: Date.parse(p.start), y: p.counts[dataset.key] ?? 0 })));
    }
    expect(await page.getAttribute('[data-testid="volume-groupby"] button[data-value="transport"]', 'aria-pressed')).toBe('true');
    await page.locator('[data-testid="volume-panel"]').screenshot({ path: 'test-artifacts/screenshots/volume-by-transport.png' });
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('marks the projected crossing of a plan whose share is falling, and the range picker refetches', async () => {
    const { status, body: created } = await fetch(new URL('/api/v1/plans', service.apiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Retire protocol version 2025-03-26', scope: { kind: 'version', value: '2025-03-26' }, announceDate: isoDay(Date.now() - 30 * DAY_MS), retireDate: isoDay(Date.now() + 200 * DAY_MS), targetShare: 0.001 }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    expect(status).toBe(201);

    const page = await browser.newPage();
    const calls = recordApiCalls(page);
    await openDashboard(page, service.apiUrl);
    await page.selectOption('[data-testid="plan-select"]', String(created.id));
    await page.locator(`[data-testid="share-panel"][data-loaded="true"][data-plan-id="${created.id}"]`).waitFor();

    const { body: share } = await service.api(calls.get('/api/v1/share')!);
    expect(share.trend.projection.kind).toBe('crossing');
    const chart = await readChart(page, 'share');
    const byKey = new Map(chart.datasets.map((d) => [d.key, d]));
    const projectedAt = Date.parse(share.trend.projectedDate);
    expect(byKey.get('projection')!.data).toEqual([{ x: projectedAt, y: share.target }]);
    expect(byKey.get('trend')!.data).toEqual(share.trend.line.map((p: any) => ({ x: Date.parse(p.start), y: p.share })));
    expect(chart.markers.points).toEqual([expect.objectContaining({ x: projectedAt, y: share.target, label: `Projected ${share.trend.projectedDate.slice(0, 10)}` })]);
    expect(await page.textContent('[data-testid="projected-date"]')).toBe(share.trend.projectedDate.slice(0, 10));
    expect(await page.getAttribute('[data-testid="plan-status-pill"]', 'data-status')).toBe(share.plan.status.status);
    await saveScreenshot(page, 'share-curve-projection');

    await page.click('[data-testid="range-30"]');
    await page.waitForFunction(() => (globalThis as any).mcpSunsetCharts.share.data.datasets[0].data.length <= 31);
    await page.locator('[data-testid="share-panel"][data-loaded="true"]').waitFor();
    const from = new URL(calls.get('/api/v1/share')!, service.apiUrl).searchParams.get('from')!;
    expect(Date.now() - Date.parse(from)).toBeGreaterThanOrEqual(30 * DAY_MS);
    expect(Date.now() - Date.parse(from)).toBeLessThan(31 * DAY_MS);
    const { body: shortShare } = await service.api(calls.get('/api/v1/share')!);
    expect((await readChart(page, 'share')).datasets[0]!.data).toEqual(shortShare.series.map((p: any) => ({ x: Date.parse(p.start), y: p.share })));
    expect(page.url()).toContain('days=30');
    await saveScreenshot(page, 'share-curve-30-days');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('editing an integration through its form persists, in the API and after a reload', async () => {
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    const row = page.locator('[data-testid="integration-row"][data-key="crm-sync"]');
    expect(await row.locator('[data-testid="integration-owner"]').textContent()).toBe('—');
    expect(await row.textContent()).toContain('claims to be crm-connector 3.2.0');
    await row.locator('td').nth(3).click();
    await page.locator('[data-testid="integration-form"]').waitFor({ state: 'visible' });
    await page.fill('#integration-display-name', 'CRM sync connector');
    await page.fill('#integration-owner', 'Sales Engineering');
    await page.selectOption('#integration-status', 'contacted');
    await saveScreenshot(page, 'integration-edit-form');
    await page.click('[data-testid="integration-save"]');
    await page.locator('[data-testid="integration-form"]').waitFor({ state: 'hidden' });
    await expectOwner(page, 'Sales Engineering');

    const { body } = await service.api('/api/v1/integrations/crm-sync');
    expect(body).toMatchObject({ owner: 'Sales Engineering', displayName: 'CRM sync connector', status: 'contacted' });
    await page.reload();
    await waitForData(page);
    await expectOwner(page, 'Sales Engineering');
    expect(await page.locator('[data-testid="integration-row"][data-key="crm-sync"] [data-testid="integration-status"]').textContent()).toBe('Contacted');
    await saveScreenshot(page, 'integration-edited');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  async function expectOwner(page: Page, owner: string): Promise<void> {
    const cell = page.locator('[data-testid="integration-row"][data-key="crm-sync"] [data-testid="integration-owner"]');
    await page.waitForFunction((expected) => (globalThis as any).document.querySelector('[data-key="crm-sync"] [data-testid="integration-owner"]')?.textContent === expected, owner);
    expect(await cell.textContent()).toBe(owner);
  }

  test('shows the identifiable callers against the unknown installed base, and deadlines per plan', async () => {
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    const { body } = await service.api('/api/v1/integrations');
    expect(await page.textContent('[data-testid="split-total"]')).toBe(body.split.total.toLocaleString('en-US'));
    expect(await page.textContent('[data-testid="split-unknown"]')).toBe(body.split.unknown.toLocaleString('en-US'));
    const keys = await page.locator('[data-testid="integration-row"]').evaluateAll((rows) => rows.map((r) => (r as any).dataset.key));
    expect(keys).toEqual(body.integrations.map((i: any) => i.key));
    const anonymous = page.locator('[data-testid="integration-row"][data-key="anonymous"]');
    expect(await anonymous.locator('[data-testid="badge"]').textContent()).toBe('unknown installed base');
    const states = await page.locator('[data-testid="integration-row"]').first().locator('[data-testid="deadline"]').evaluateAll((els) => els.map((e) => (e as any).dataset.state));
    expect(states).toEqual(body.integrations[0].deadlines.map((d: any) => d.state));
    await page.close();
  });

  test('creating a plan through the form lists it with its status, in the page and the API', async () => {
    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    const today = isoDay(Date.now());
    await page.fill('#plan-name', 'Retire HTTP+SSE');
    await page.selectOption('#plan-scope-kind', 'transport');
    await page.selectOption('#plan-scope-transport', 'http+sse');
    await page.fill('#plan-announce', today);
    await page.fill('#plan-retire', isoDay(Date.now() - 5 * DAY_MS));
    await page.fill('#plan-target', '1');
    await page.click('[data-testid="plan-submit"]');
    // The server's refusal is shown beside the form, naming the field.
    await page.locator('#plan-form-error [role="alert"]').waitFor();
    expect(await page.textContent('#plan-form-error')).toContain('retireDate');
    expect(await page.getAttribute('#plan-retire', 'aria-invalid')).toBe('true');

    await page.fill('#plan-retire', isoDay(Date.now() + 90 * DAY_MS));
    await page.fill('#plan-policy', 'https://example.com/sse-sunset');
    await page.selectOption('#plan-basis', 'all-requests');
    await page.click('[data-testid="plan-submit"]');
    const item = page.locator('[data-testid="plan-item"]', { hasText: 'Retire HTTP+SSE' });
    await item.waitFor();
    const shownStatus = await item.locator('[data-testid="plan-item-status"]').getAttribute('data-status');

    const { body } = await service.api('/api/v1/plans');
    const listed = body.plans.find((p: any) => p.name === 'Retire HTTP+SSE');
    expect(listed).toMatchObject({ scope: { kind: 'transport', value: 'http+sse' }, targetShare: 0.01, basis: 'all-requests', announceDate: today, policyUrl: 'https://example.com/sse-sunset' });
    expect(shownStatus).toBe(listed.status.status);
    expect(await item.locator('[data-testid="plan-item-reason"]').textContent()).toBe(listed.status.reason);
    expect(await page.locator(`[data-testid="plan-select"] option[value="${listed.id}"]`).count()).toBe(1);
    expect(await page.inputValue('#plan-name')).toBe('');
    await item.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'plan-created');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('lists firing and pending alerts with severity and since when, resolved ones folded away', async () => {
    const now = Date.now();
    const insert = service.database().sqlite.prepare(
      `insert into alerts (fingerprint, rule, subject, state, severity, summary, details, consecutive_hits, first_fired_at, last_fired_at, resolved_at, last_evaluated_at)
       values (?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?)`,
    );
    const { lastInsertRowid: firingId } = insert.run(`curve-flattened:plan:${demoPlanId}`, 'curve-flattened', `plan:${demoPlanId}`, 'firing', 'warning', 'Legacy share has stopped falling at 8.1%', 2, now - 3 * 3_600_000, now - 600_000, null, now);
    // One webhook took the notification, another never did: the list must say so.
    const delivery = service.database().sqlite.prepare(`insert into alert_deliveries (alert_id, transition, webhook, format, status, attempts, last_error, at) values (?, 'firing', ?, 'json', ?, ?, ?, ?)`);
    delivery.run(firingId, 'ops', 'delivered', 1, null, now - 600_000);
    delivery.run(firingId, 'slack', 'failed', 5, 'HTTP 503 Service Unavailable', now - 500_000);
    insert.run('new-legacy-caller:tok_0000000000000001', 'new-legacy-caller', 'tok_0000000000000001', 'pending', 'info', 'A new caller is using the legacy era', 1, null, null, null, now);
    insert.run('metering-loss:node', 'metering-loss', 'node', 'resolved', 'critical', 'Counts were dropped on test-node', 0, now - DAY_MS, now - DAY_MS, now - DAY_MS + 600_000, now - DAY_MS + 600_000);

    const page = await browser.newPage();
    await openDashboard(page, service.apiUrl);
    const firing = page.locator('[data-testid="alerts-open"] [data-testid="alert-item"][data-state="firing"]');
    await firing.waitFor();
    expect(await firing.textContent()).toContain('Legacy share has stopped falling at 8.1%');
    expect(await firing.textContent()).toContain(`since ${new Date(now - 3 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(await firing.locator('.badge').first().textContent()).toBe('warning');
    expect(await firing.locator('[data-testid="alert-deliveries"]').textContent()).toBe('Webhooks: 1 delivered, 1 failed; last error: HTTP 503 Service Unavailable');
    const openStates = await page.locator('[data-testid="alerts-open"] [data-testid="alert-item"]').evaluateAll((els) => els.map((e) => (e as any).dataset.state));
    expect(openStates).toEqual(['firing', 'pending']);
    const resolved = page.locator('[data-testid="alerts-resolved"]');
    expect(await resolved.getAttribute('open')).toBeNull();
    expect(await resolved.locator('summary').textContent()).toBe('Resolved (1)');
    expect(await resolved.locator('[data-testid="alert-item"]').isVisible()).toBe(false);
    await page.locator('[data-testid="alerts-panel"]').screenshot({ path: 'test-artifacts/screenshots/alerts-panel.png' });
    await saveScreenshot(page, 'alerts');
    await page.close();
  });

  test('on a phone nothing is wider than the screen except the scrollable tables', async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await openDashboard(page, service.apiUrl);
    const layout = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const width = doc.documentElement.clientWidth;
      const offenders: string[] = [];
      for (const el of doc.querySelectorAll('body *')) {
        const scroller = el.closest('.table-scroll');
        if ((scroller !== null && scroller !== el) || el.closest('dialog:not([open]), [hidden]')) continue;
        const rect = el.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) continue;
        if (rect.right > width + 1 || rect.left < -1) offenders.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} (${Math.round(rect.left)}–${Math.round(rect.right)})`);
      }
      const table = doc.querySelector('.table-scroll');
      return {
        width,
        scrollWidth: doc.documentElement.scrollWidth,
        offenders,
        tableScrolls: (globalThis as any).getComputedStyle(table).overflowX,
        tableWiderThanScreen: table.scrollWidth > table.clientWidth,
      };
    });
    expect(layout.offenders).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.width);
    expect(layout.width).toBe(390);
    expect(layout.tableScrolls).toBe('auto');
    expect(layout.tableWiderThanScreen).toBe(true);
    await saveScreenshot(page, 'phone');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
