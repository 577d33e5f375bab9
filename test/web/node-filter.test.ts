/** The node picker: one node's share curve and volume, or the whole fleet's, from the nodes that flushed. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bucketStart } from '../../server/lib/time-bucket.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { trafficCell } from '../store/temp-database.js';
import { writeBatch } from '../support/write-batch.js';
import { pageErrors, saveScreenshot } from './browser.js';
import { DAY_MS, openDashboard, readChart, recordApiCalls, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const MODERN = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' } as const;

describe('the node picker', () => {
  let rig: DashboardRig;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    const today = bucketStart(Date.now(), 'day');
    // Ten days: edge-a serves 3 legacy and 1 modern work request a day, edge-b 4 modern ones.
    for (const node of ['edge-a', 'edge-b']) {
      const cells: TallyCell[] = [];
      for (let d = 9; d >= 1; d -= 1) {
        const minute = today - d * DAY_MS + 3_600_000;
        if (node === 'edge-a') cells.push(trafficCell({ minute, node, count: 3 }), trafficCell({ minute, node, count: 1, ...MODERN }));
        else cells.push(trafficCell({ minute, node, count: 4, ...MODERN }));
      }
      await writeBatch(rig.service.store!, { cells, integrations: [] }, { node, kind: 'serve', at: Date.now(), policyVersion: 0, startedAt: Date.now() - 60_000 });
    }
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('lists the nodes that flushed; choosing one draws its share and volume, and a reload keeps it', async () => {
    const page = await rig.browser.newPage();
    const calls = recordApiCalls(page);
    await openDashboard(page, rig.service.apiUrl);
    const options = await page.locator('[data-testid="node-select"] option').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    expect(options[0]).toBe('');
    expect(options).toEqual(expect.arrayContaining(['edge-a', 'edge-b']));
    const fleetShares = (await readChart(page, 'share')).datasets.find((d) => d.key === 'share')!.data.flatMap((p) => (p.y === null ? [] : [p.y]));
    // The fleet: 3 legacy of 8 work requests a day.
    expect(new Set(fleetShares)).toEqual(new Set([3 / 8]));

    await page.selectOption('[data-testid="node-select"]', 'edge-a');
    await page.locator('#share-title', { hasText: 'on edge-a' }).waitFor();
    await page.locator('[data-testid="share-panel"][data-loaded="true"]').waitFor();
    await page.locator('[data-testid="volume-panel"][data-loaded="true"]').waitFor();
    expect(new URL(`http://x${calls.get('/api/v1/share')}`).searchParams.get('node')).toBe('edge-a');
    expect(new URL(`http://x${calls.get('/api/v1/traffic')}`).searchParams.get('node')).toBe('edge-a');
    const nodeShares = (await readChart(page, 'share')).datasets.find((d) => d.key === 'share')!.data.flatMap((p) => (p.y === null ? [] : [p.y]));
    expect(new Set(nodeShares)).toEqual(new Set([3 / 4]));
    const volume = await readChart(page, 'volume');
    const total = volume.datasets.reduce((sum, d) => sum + d.data.reduce((s, p) => s + (p.y ?? 0), 0), 0);
    expect(total).toBe(9 * 4);
    expect(page.url()).toContain('node=edge-a');
    await saveScreenshot(page, 'node-filter');

    await page.reload();
    await page.locator('#share-title', { hasText: 'on edge-a' }).waitFor();
    expect(await page.locator('[data-testid="node-select"]').inputValue()).toBe('edge-a');
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
