/** The integrations table says who is already moving, and filters by it through the API. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { trafficCell } from '../store/temp-database.js';
import { pageErrors } from './browser.js';
import { DAY_MS, openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

describe('who is moving, in the integrations table and the share chart', () => {
  let rig: DashboardRig;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const sighting = (key: string, legacy: boolean) => ({ key, source: 'static-map', firstSeen: today - 3 * DAY_MS, lastSeen: today, lastLegacySeen: legacy ? today : undefined, clientInfo: undefined });
    const modern = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' } as const;
    createTallyWriter(rig.service.database().db)({
      cells: [
        trafficCell({ minute: today - 2 * DAY_MS, integration: 'crm-sync', count: 40 }),
        trafficCell({ minute: today - DAY_MS, integration: 'crm-sync', count: 25, ...modern }),
        trafficCell({ minute: today - DAY_MS, integration: 'billing', count: 90 }),
        trafficCell({ minute: today - DAY_MS, integration: 'new-agent', count: 70, ...modern }),
      ],
      integrations: [sighting('crm-sync', true), sighting('billing', true), sighting('new-agent', false)],
    });
  }, 120_000);
  afterAll(() => rig?.close());

  test('each row says whether its caller is moving, and the filter asks the API for one state', async () => {
    const page = await rig.browser.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/integrations') asked.push(url.search);
    });
    await openDashboard(page, rig.service.apiUrl);
    const states = async () =>
      page.locator('[data-testid="integration-row"]').evaluateAll((rows) =>
        rows.map((r) => [(r as any).dataset.key, (r.querySelector('[data-testid="integration-migration"]') as any).dataset.state, r.querySelector('[data-testid="integration-migration"]')!.textContent]),
      );
    expect(await states()).toEqual([
      ['billing', 'legacy-only', 'Legacy only'],
      ['crm-sync', 'migrating', 'Migrating'],
      ['new-agent', 'modern-only', 'Modern only'],
    ]);
    // The page shows what the API answers.
    const api = (await rig.service.api('/api/v1/integrations')).body.integrations as { key: string; migration: string }[];
    expect(api.map((i) => [i.key, i.migration])).toEqual([['billing', 'legacy-only'], ['crm-sync', 'migrating'], ['new-agent', 'modern-only']]);

    // The share chart can show distinct callers per era per day, as the share API counts them.
    const callers = await page.evaluate(() => {
      const chart = (globalThis as any).mcpSunsetCharts.share;
      return chart.data.datasets
        .map((d: any, i: number) => ({ key: d.key, visible: chart.isDatasetVisible(i), points: d.data.filter((p: any) => p.y > 0).map((p: any) => [p.x, p.y]) }))
        .filter((d: any) => d.key === 'legacyCallers' || d.key === 'modernCallers');
    });
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    expect(callers).toEqual([
      { key: 'legacyCallers', visible: false, points: [[today - 2 * DAY_MS, 1], [today - DAY_MS, 1]] },
      { key: 'modernCallers', visible: false, points: [[today - DAY_MS, 2]] },
    ]);
    const share = (await rig.service.api('/api/v1/share?scope=era:legacy&bucket=day')).body;
    const day = (at: number) => share.series.find((p: { start: string }) => Date.parse(p.start) === at);
    expect([day(today - DAY_MS).legacyIntegrations, day(today - DAY_MS).modernIntegrations]).toEqual([1, 2]);
    // Its legend entry turns a line on.
    await page.evaluate(() => {
      const chart = (globalThis as any).mcpSunsetCharts.share;
      const index = chart.data.datasets.findIndex((d: any) => d.key === 'modernCallers');
      chart.legend.options.onClick.call(chart.legend, {}, { datasetIndex: index, hidden: true }, chart.legend);
    });
    expect(await page.evaluate(() => {
      const chart = (globalThis as any).mcpSunsetCharts.share;
      return chart.isDatasetVisible(chart.data.datasets.findIndex((d: any) => d.key === 'modernCallers'));
    })).toBe(true);

    await page.selectOption('[data-testid="integrations-migration-filter"]', 'migrating');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="integration-row"]').length === 1);
    expect(await states()).toEqual([['crm-sync', 'migrating', 'Migrating']]);
    expect(asked.at(-1)).toBe('?migration=migrating');
    expect(await page.inputValue('[data-testid="integrations-migration-filter"]')).toBe('migrating');

    await page.selectOption('[data-testid="integrations-migration-filter"]', 'moved');
    await page.locator('[data-testid="integrations-empty"]').waitFor();
    expect(await page.textContent('[data-testid="integrations-empty"]')).toContain('No callers are moved');
    await page.selectOption('[data-testid="integrations-migration-filter"]', '');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid="integration-row"]').length === 3);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
