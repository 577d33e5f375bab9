/** The fleet panel against two real SDK servers of one half-rolled "fleet". */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { pageErrors, saveScreenshot } from './browser.js';
import { openDashboard, startDashboardRig, type DashboardRig } from './dashboard-support.js';

describe('the fleet panel', () => {
  let rig: DashboardRig;
  let modern: Peer;
  let dual: Peer;

  beforeAll(async () => {
    [modern, dual] = await Promise.all([startV2Server('modern'), startV2Server('dual')]);
    rig = await startDashboardRig({
      seed: false,
      config: { fleet: { nodes: [{ name: 'eu-1', url: modern.url.href }, { name: 'eu-2', url: modern.url.href }, { name: 'us-1', url: dual.url.href }], timeoutMs: 5000 } },
    });
  }, 120_000);

  afterAll(async () => {
    await rig?.close();
    await Promise.all([modern?.close(), dual?.close()]);
  });

  test('"Check now" probes every node and highlights the one serving a different set', async () => {
    const page = await rig.browser.newPage();
    await openDashboard(page, rig.service.apiUrl);
    await page.locator('[data-testid="fleet-unchecked"]').waitFor();
    await page.click('[data-testid="fleet-check"]');
    await page.locator('[data-testid="fleet-drift"]').waitFor();
    expect(await page.textContent('[data-testid="fleet-drift"]')).toBe('Not uniform: most nodes serve 2026-07-28; the highlighted ones differ.');
    const rows = await page.locator('[data-testid="fleet-node"]').evaluateAll((els) => els.map((e) => ({ node: (e as any).dataset.node as string, differs: (e as any).dataset.differs as string })));
    expect(rows).toEqual([
      { node: 'eu-1', differs: 'false' },
      { node: 'eu-2', differs: 'false' },
      { node: 'us-1', differs: 'true' },
    ]);
    expect(await page.locator('[data-node="us-1"] [data-testid="fleet-versions"]').textContent()).toBe('2025-11-25, 2026-07-28');
    // The page shows what the API answers.
    const api = (await rig.service.api('/api/v1/fleet')).body;
    expect(api.nodes.map((n: { node: string; differs: boolean }) => [n.node, n.differs])).toEqual([['eu-1', false], ['eu-2', false], ['us-1', true]]);
    await page.locator('[data-testid="fleet-panel"]').screenshot({ path: 'test-artifacts/screenshots/fleet-panel.png' });
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });

  test('the panel reloads with the stored checks', async () => {
    const page = await rig.browser.newPage();
    await openDashboard(page, rig.service.apiUrl);
    await page.locator('[data-testid="fleet-drift"]').waitFor();
    await saveScreenshot(page, 'fleet');
    await page.close();
  });
});
