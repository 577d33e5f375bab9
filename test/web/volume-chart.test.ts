/** The volume chart grouped by version, when clients name their version like an Object built-in. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rawRequest } from '../support/raw-request.js';
import { pageErrors } from './browser.js';
import { openDashboard, readChart, startDashboardRig, type DashboardRig } from './dashboard-support.js';

const NAMES = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'].filter((name, index, all) => all.indexOf(name) === index);

describe('the volume chart', () => {
  let rig: DashboardRig;

  beforeAll(async () => {
    rig = await startDashboardRig({ seed: false });
    for (const [index, name] of NAMES.entries()) {
      for (let n = 0; n <= index; n += 1) {
        const body = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":${JSON.stringify(name)}}}}`;
        await rawRequest(new URL('/mcp', rig.service.sidecarUrl), 'POST', ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'], body);
      }
    }
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
  });

  test('draws one dataset per version named like a built-in, each with exactly its count, and the page raises no error', async () => {
    const page = await rig.browser.newPage();
    const errors = pageErrors(page);
    await openDashboard(page, rig.service.apiUrl);
    await page.click('[data-testid="volume-groupby"] button[data-value="version"]');
    await page.waitForFunction((count) => (globalThis as any).mcpSunsetCharts.volume.data.datasets.length === count, NAMES.length);
    await page.locator('[data-testid="volume-panel"][data-loaded="true"]').waitFor();
    const volume = await readChart(page, 'volume');
    expect(volume.datasets.map((d) => d.label).sort()).toEqual([...NAMES].sort());
    for (const dataset of volume.datasets) {
      const ys = dataset.data.map((p) => p.y);
      for (const y of ys) expect(typeof y, dataset.label).toBe('number');
      expect(ys.reduce<number>((sum, y) => sum + (y ?? 0), 0), dataset.label).toBe(NAMES.indexOf(dataset.label) + 1);
    }
    expect(errors).toEqual([]);
  });
});
