import { describe, expect, test } from 'vitest';
import type { AlertDraft } from '../../../server/store/records/alert-record.js';
import type { ProbeInsert } from '../../../server/store/records/probe-record.js';
import { BACKENDS, MINUTE, NOON, sighting, useStores, writeCells } from './backends.js';

function draft(overrides: Partial<AlertDraft> = {}): AlertDraft {
  return {
    fingerprint: 'share-stalled:legacy',
    rule: 'share-stalled',
    subject: 'legacy',
    state: 'firing',
    severity: 'warning',
    summary: 'The legacy share has not moved',
    details: { share: 0.4, nested: { days: [1, 2] } },
    consecutiveHits: 1,
    firstFiredAt: NOON,
    lastFiredAt: NOON,
    resolvedAt: null,
    lastEvaluatedAt: NOON,
    ...overrides,
  };
}

function probe(overrides: Partial<ProbeInsert> = {}): ProbeInsert {
  return {
    node: 'node-1',
    target: 'http://127.0.0.1:1/mcp',
    era: 'modern',
    state: 'ready',
    evidenceClass: 'discover',
    evidenceCode: 'discover-ok',
    detail: 'answered server/discover',
    version: '2026-07-28',
    supportedVersions: ['2026-07-28', '2025-11-25'],
    legacyAccepted: true,
    serverInfo: { name: 'srv', version: '1.2.3' },
    latencyMs: 12,
    at: NOON,
    ...overrides,
  };
}

describe.each(BACKENDS)('%s store: integrations', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('operators edit a seen caller; a caller never seen answers undefined', async () => {
    const store = await open();
    await writeCells(store, [], [sighting()]);
    expect(await store.updateIntegration('nobody', { owner: 'x' }, NOON)).toBeUndefined();
    const edited = await store.updateIntegration('tok_a', { displayName: 'A', owner: 'team-a', status: 'contacted', notes: null }, NOON + MINUTE);
    expect(edited).toMatchObject({ key: 'tok_a', displayName: 'A', owner: 'team-a', status: 'contacted', notes: null, contact: null, updatedAt: NOON + MINUTE });
    expect(await store.getIntegration('tok_a')).toEqual(edited);
  });

  test('closures apply once, leave updatedAt alone, and answer only those that changed a row', async () => {
    const store = await open();
    await writeCells(store, [], [sighting(), sighting({ key: 'tok_b' })]);
    await store.updateIntegration('tok_a', { status: 'migrating' }, NOON);
    const close = { kind: 'close' as const, key: 'tok_a', statusBeforeClose: 'migrating' as const };
    const staleClose = { kind: 'close' as const, key: 'tok_b', statusBeforeClose: 'contacted' as const };
    expect(await store.applyIntegrationClosures([close, staleClose, { kind: 'forget-close', key: 'tok_b' }], NOON + MINUTE)).toEqual([close]);
    expect(await store.getIntegration('tok_a')).toMatchObject({ status: 'done', autoClosedAt: NOON + MINUTE, statusBeforeClose: 'migrating', updatedAt: NOON });
    expect(await store.applyIntegrationClosures([close], NOON + 2 * MINUTE)).toEqual([]);
    const reopen = { kind: 'reopen' as const, key: 'tok_a', status: 'migrating' as const };
    expect(await store.applyIntegrationClosures([reopen], NOON + 3 * MINUTE)).toEqual([reopen]);
    expect(await store.getIntegration('tok_a')).toMatchObject({ status: 'migrating', autoClosedAt: null, statusBeforeClose: null, reopenedAt: NOON + 3 * MINUTE });
    expect(await store.applyIntegrationClosures([], NOON)).toEqual([]);
  });

  test('a client name is stored with when it was fetched; a fetch that gave none records the time and keeps the name; sightings leave both alone', async () => {
    const store = await open();
    const key = 'oauth:https://desk.example/client.json';
    await writeCells(store, [], [sighting({ key, source: 'oauth' })]);
    expect(await store.getIntegration(key)).toMatchObject({ clientName: null, clientNameAt: null });
    // A failure before any name: the time alone.
    expect(await store.setIntegrationClientName(key, null, NOON)).toBe(true);
    expect(await store.getIntegration(key)).toMatchObject({ clientName: null, clientNameAt: NOON });
    expect(await store.setIntegrationClientName(key, 'Support Desk', NOON + MINUTE)).toBe(true);
    expect(await store.getIntegration(key)).toMatchObject({ clientName: 'Support Desk', clientNameAt: NOON + MINUTE });
    expect(await store.setIntegrationClientName(key, null, NOON + 2 * MINUTE)).toBe(true);
    expect(await store.getIntegration(key)).toMatchObject({ clientName: 'Support Desk', clientNameAt: NOON + 2 * MINUTE });
    // The next sighting of the caller, and an operator's edit, change neither; nor is the edit time touched by a fetch.
    await writeCells(store, [], [sighting({ key, source: 'oauth', lastSeen: NOON + 3 * MINUTE })]);
    await store.updateIntegration(key, { displayName: 'Desk' }, NOON + 4 * MINUTE);
    expect(await store.setIntegrationClientName(key, 'Support Desk 2', NOON + 5 * MINUTE)).toBe(true);
    expect(await store.getIntegration(key)).toMatchObject({ clientName: 'Support Desk 2', clientNameAt: NOON + 5 * MINUTE, displayName: 'Desk', updatedAt: NOON + 4 * MINUTE, lastSeen: NOON + 3 * MINUTE });
    expect((await store.listIntegrations()).find((r) => r.key === key)).toMatchObject({ clientName: 'Support Desk 2', clientNameAt: NOON + 5 * MINUTE });
    // A caller never seen is not created.
    expect(await store.setIntegrationClientName('oauth:https://nobody.example/c.json', 'Nobody', NOON)).toBe(false);
    expect(await store.getIntegration('oauth:https://nobody.example/c.json')).toBeUndefined();
  });
});

describe.each(BACKENDS)('%s store: alerts', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('an evaluation saves changed alerts by fingerprint, drops the dropped, and keeps its settings', async () => {
    const store = await open();
    const saved = await store.saveAlertEvaluation({
      changed: [draft(), draft({ fingerprint: 'new-callers:legacy', rule: 'new-callers', state: 'pending', lastEvaluatedAt: NOON + MINUTE, firstFiredAt: null, lastFiredAt: null })],
      dropped: [],
      settings: [{ key: 'alerts.meteringDroppedEvents', value: '7' }, { key: 'alerts.lastRunAt', value: String(NOON) }],
    });
    expect(saved.map((a) => a.fingerprint)).toEqual(['share-stalled:legacy', 'new-callers:legacy']);
    expect(saved[0]).toEqual({ ...draft(), id: saved[0]!.id });
    expect(await store.getAlertSetting('alerts.meteringDroppedEvents')).toBe('7');
    expect(await store.getAlertSetting('alerts.lastRunAt')).toBe(String(NOON));

    const listed = await store.listAlerts();
    expect(listed.map((a) => a.fingerprint)).toEqual(['new-callers:legacy', 'share-stalled:legacy']);
    expect(listed[0]!.deliverySummary).toEqual({ delivered: 0, failed: 0, lastError: null, lastAt: null });
    expect((await store.listAlerts({ state: 'pending' })).map((a) => a.fingerprint)).toEqual(['new-callers:legacy']);

    const resaved = await store.saveAlertEvaluation({ changed: [draft({ state: 'resolved', resolvedAt: NOON + 2 * MINUTE, consecutiveHits: 0 })], dropped: ['new-callers:legacy'] });
    expect(resaved).toEqual([{ ...draft({ state: 'resolved', resolvedAt: NOON + 2 * MINUTE, consecutiveHits: 0 }), id: saved[0]!.id }]);
    expect((await store.listAlerts()).map((a) => [a.id, a.state])).toEqual([[saved[0]!.id, 'resolved']]);
    expect(await store.getAlert(saved[1]!.id)).toBeUndefined();
    expect(await store.getAlertSetting('alerts.meteringDroppedEvents')).toBe('7');
    expect(await store.getAlertSetting('alerts.lastRunAt')).toBe(String(NOON));
  });

  test('deliveries are listed newest first and summarised per alert; they go with their alert', async () => {
    const store = await open();
    const [alert] = await store.saveAlertEvaluation({ changed: [draft()], dropped: [] });
    const base = { alertId: alert!.id, transition: 'firing' as const, webhook: 'https://hooks.example/a', format: 'json' as const, attempts: 1 };
    const first = await store.insertAlertDelivery({ ...base, status: 'failed', lastError: 'timeout', at: NOON });
    const second = await store.insertAlertDelivery({ ...base, status: 'delivered', lastError: null, at: NOON + 2 * MINUTE });
    const third = await store.insertAlertDelivery({ ...base, status: 'failed', lastError: 'HTTP 500', attempts: 3, at: NOON + MINUTE });
    expect(first).toEqual({ ...base, id: first.id, status: 'failed', lastError: 'timeout', at: NOON });
    const withDeliveries = await store.getAlert(alert!.id);
    expect(withDeliveries?.deliveries).toEqual([second, third, first]);
    const [listed] = await store.listAlerts();
    expect(listed!.deliverySummary).toEqual({ delivered: 1, failed: 2, lastError: 'HTTP 500', lastAt: NOON + 2 * MINUTE });
    await store.saveAlertEvaluation({ changed: [], dropped: [alert!.fingerprint] });
    expect(await store.listAlerts()).toEqual([]);
    expect(await store.getAlert(alert!.id)).toBeUndefined();
  });

  test('an unset setting reads undefined', async () => {
    const store = await open();
    expect(await store.getAlertSetting('alerts.meteringDroppedEvents')).toBeUndefined();
  });
});

describe.each(BACKENDS)('%s store: probes and the install secret', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('a probe comes back as written; the latest per node is listed in node order', async () => {
    const store = await open();
    const stored = await store.insertProbe(probe());
    expect(stored).toEqual({ ...probe(), id: stored.id });
    await store.insertProbe(probe({ at: NOON + MINUTE, era: null, state: 'unavailable', supportedVersions: [], legacyAccepted: null, serverInfo: null, version: null }));
    const tieA = await store.insertProbe(probe({ node: 'node-0', at: NOON }));
    const tieB = await store.insertProbe(probe({ node: 'node-0', at: NOON, legacyAccepted: false }));
    const latest = await store.listLatestProbes();
    expect(latest.map((p) => [p.node, p.at, p.state])).toEqual([
      ['node-0', NOON, 'ready'],
      ['node-1', NOON + MINUTE, 'unavailable'],
    ]);
    expect(latest[0]!.id).toBe(Math.max(tieA.id, tieB.id));
    expect(latest[0]!.legacyAccepted).toBe(false);
    expect(latest[1]).toMatchObject({ era: null, supportedVersions: [], legacyAccepted: null, serverInfo: null, version: null });
  });

  test('the install secret is made once and stays the same, even asked for at once', async () => {
    const store = await open();
    const secrets = await Promise.all([store.getInstallSecret(), store.getInstallSecret(), store.getInstallSecret()]);
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(await store.getInstallSecret()).toBe(secrets[0]);
  });
});
