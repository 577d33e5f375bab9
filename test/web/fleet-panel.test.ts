/** The fleet panel against two real SDK servers of one half-rolled "fleet". */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bumpPolicyVersion } from '../../server/store/sqlite/policy-version.js';
import { writeBatch } from '../support/write-batch.js';
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

  test('lists the sidecars writing to the store: kind, last flush, policy version, and a lagging or stale badge', async () => {
    const changedAt = Date.now() - 10 * 60_000;
    const version = bumpPolicyVersion(rig.service.database().db, changedAt);
    await writeBatch(rig.service.store!, { cells: [], integrations: [] }, { node: 'edge-lagging', kind: 'wrap', at: Date.now() - 90_000, policyVersion: version - 1, startedAt: changedAt - 3_600_000 });
    await writeBatch(rig.service.store!, { cells: [], integrations: [] }, { node: 'edge-stale', kind: 'serve', at: changedAt - 2 * 3_600_000, policyVersion: version - 1, startedAt: changedAt - 3 * 3_600_000 });
    // The serving node's own heartbeat then names the stored version.
    await rig.service.refreshPolicy();
    await rig.service.flush();

    const page = await rig.browser.newPage();
    await openDashboard(page, rig.service.apiUrl);
    await page.locator('[data-testid="sidecars-table"]').waitFor();
    const rows = await page.locator('[data-testid="sidecar"]').evaluateAll((els) =>
      els.map((e) => ({
        node: (e as any).dataset.node as string,
        cells: [...e.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim()),
      })),
    );
    expect(rows).toEqual([
      { node: 'edge-lagging', cells: ['edge-lagging', 'wrap', expect.stringMatching(/^\d+ min ago$/), String(version - 1), 'lagging'] },
      { node: 'edge-stale', cells: ['edge-stale', 'serve', '2 h ago', String(version - 1), 'stale'] },
      { node: 'test-node', cells: ['test-node', 'serve', expect.stringMatching(/^(just now|\d+ s ago)$/), String(version), 'current'] },
    ]);
    expect(await page.textContent('[data-testid="sidecars-policy"]')).toBe(`The stored policy is at version ${version}.`);
    // The page shows what the API answers.
    const api = (await rig.service.api('/api/v1/fleet')).body;
    expect(api.sidecars.map((s: { node: string; lagging: boolean; stale: boolean }) => [s.node, s.lagging, s.stale])).toEqual([
      ['edge-lagging', true, false],
      ['edge-stale', false, true],
      ['test-node', false, false],
    ]);
    await page.locator('[data-testid="fleet-panel"]').screenshot({ path: 'test-artifacts/screenshots/fleet-sidecars.png' });
    expect(pageErrors(page)).toEqual([]);
    await page.close();
  });
});
