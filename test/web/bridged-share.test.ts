/**
 * The bridged share on the dashboard, in headless Chromium against the real service: drawn as its
 * own labelled line under the legacy share when the legacy bridge served traffic in range, with the
 * latest figure under the current share, and left out where nothing was bridged.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bucketStart } from '../../server/lib/time-bucket.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { trafficCell } from '../store/temp-database.js';
import { writeBatch } from '../support/write-batch.js';
import { pageErrors, saveScreenshot } from './browser.js';
import { DAY_MS, openDashboard, readChart, recordApiCalls, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const MODERN = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' } as const;

/** What a reader of the page gets of the share chart besides its data: legend, colours and accessible name. */
function readShareChrome(page: Page) {
  return page.evaluate(() => {
    const chart = (globalThis as any).mcpSunsetCharts.share;
    return {
      legend: (chart.legend.legendItems as { text: string }[]).map((item) => item.text),
      colours: Object.fromEntries(chart.data.datasets.map((d: any) => [d.key, d.borderColor])) as Record<string, string>,
      ariaLabel: chart.canvas.getAttribute('aria-label') as string,
    };
  });
}

describe('the bridged share on the dashboard', () => {
  let rig: DashboardRig;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    const today = bucketStart(Date.now(), 'day');
    // Nine days: edge-a serves 3 legacy work requests on their own session, 2 through the bridge and
    // 5 modern ones a day; edge-b 4 modern ones and nothing bridged. The fleet: 5 legacy, 2 bridged of 14.
    for (const node of ['edge-a', 'edge-b']) {
      const cells: TallyCell[] = [];
      for (let d = 9; d >= 1; d -= 1) {
        const minute = today - d * DAY_MS + 3_600_000;
        if (node === 'edge-a') cells.push(trafficCell({ minute, node, count: 3 }), trafficCell({ minute, node, reason: 'bridge', integration: 'tok_b', count: 2 }), trafficCell({ minute, node, count: 5, ...MODERN }));
        else cells.push(trafficCell({ minute, node, count: 4, ...MODERN }));
      }
      await writeBatch(rig.service.store!, { cells, integrations: [] }, { node, kind: 'serve', at: Date.now(), policyVersion: 0, startedAt: Date.now() - 60_000 });
    }
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('draws the bridged share as its own labelled series, exactly as the API answered, and shows the latest figure', async () => {
    const page = await rig.browser.newPage();
    const calls = recordApiCalls(page);
    await openDashboard(page, rig.service.apiUrl);

    const { body: share } = await rig.service.api(calls.get('/api/v1/share')!);
    const chart = await readChart(page, 'share');
    const byKey = new Map(chart.datasets.map((d) => [d.key, d]));
    expect(chart.datasets[0]!.key).toBe('share');
    const bridged = byKey.get('bridged')!;
    expect(bridged.label).toBe('Bridged share of work requests (daily)');
    expect(bridged.data).toEqual(share.series.map((p: any) => ({ x: Date.parse(p.start), y: p.bridgedShare })));
    expect(new Set(bridged.data.flatMap((p) => (p.y === null ? [] : [p.y])))).toEqual(new Set([2 / 14]));
    expect(new Set(byKey.get('share')!.data.flatMap((p) => (p.y === null ? [] : [p.y])))).toEqual(new Set([5 / 14]));

    const chrome = await readShareChrome(page);
    expect(chrome.legend).toContain('Bridged share of work requests (daily)');
    expect(chrome.legend).toContain('Legacy share of work requests (daily)');
    expect(chrome.colours.bridged).not.toBe(chrome.colours.share);
    expect(new Set(Object.values(chrome.colours)).size).toBe(Object.keys(chrome.colours).length);
    expect(chrome.ariaLabel).toBe('Daily legacy share and bridged share with fitted trend, target line and retire date');

    expect(share.currentBridgedShare).toBe(2 / 14);
    expect(await page.textContent('[data-testid="current-share"]')).toBe(`${((5 / 14) * 100).toFixed(2)}%`);
    expect(await page.textContent('[data-testid="current-bridged-share"]')).toBe(`${((2 / 14) * 100).toFixed(2)}% via the bridge`);
    await saveScreenshot(page, 'bridged-share');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('a node the bridge never served draws no bridged line, legend entry or figure', async () => {
    const page = await rig.browser.newPage();
    await openDashboard(page, rig.service.apiUrl);
    await page.selectOption('[data-testid="node-select"]', 'edge-b');
    await page.locator('#share-title', { hasText: 'on edge-b' }).waitFor();
    await page.locator('[data-testid="share-panel"][data-loaded="true"]').waitFor();

    const chart = await readChart(page, 'share');
    expect(chart.datasets.find((d) => d.key === 'bridged')!.data).toEqual([]);
    const chrome = await readShareChrome(page);
    expect(chrome.legend.some((text) => text.startsWith('Bridged'))).toBe(false);
    expect(chrome.ariaLabel).toBe('Daily legacy share with fitted trend, target line and retire date');
    expect(await page.locator('[data-testid="current-bridged-share"]').count()).toBe(0);
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
