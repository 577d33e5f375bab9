import { pino } from 'pino';
import { afterAll, describe, expect, test } from 'vitest';
import { meter } from '../../../server/express/index.js';
import { openStore } from '../../../server/store/open-store.js';
import type { TrafficDimension } from '../../../server/store/records/traffic-series.js';
import { captureV1ConnectError, runV1HttpSession, runV2Session } from '../../peers/clients.js';
import { dayFromNow as day, POLICY_URL } from '../../support/enforcement-peers.js';
import { createTestDatabase, type TestDatabase } from '../../support/create-test-database.js';
import { planInput } from '../../support/plan-input.js';
import { startMeteredApp } from '../../express/metered-apps.js';

describe('the Express middleware writing to Postgres', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of databases) await db.drop();
  });

  test('two instrumented apps (two nodes) on one Postgres: every message counted once, per node, and the apps answer as without it', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const apps = [];
    for (const node of ['app-1', 'app-2']) {
      const metered = meter({ db: db.url, node, logger: pino({ level: 'silent' }) });
      apps.push({ node, metered, peer: await startMeteredApp('v2-dual', { json: true, metered }) });
    }
    const bare = await startMeteredApp('v2-dual', { json: true });
    const expectedLegacy = await runV1HttpSession(bare.url, { terminate: true });
    const expectedModern = await runV2Session(bare.url, 'pin');
    await bare.close();
    for (const app of apps) {
      expect(await runV1HttpSession(app.peer.url, { terminate: true })).toEqual(expectedLegacy);
      expect(await runV2Session(app.peer.url, 'pin')).toEqual(expectedModern);
      await app.peer.close();
      expect(await app.metered.close()).toEqual({ spooled: 0, lost: 0 });
    }

    const store = await openStore(db.url);
    try {
      const totals = async (groupBy: TrafficDimension, filters: Record<string, string>) =>
        (await store.listTraffic({ from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'minute', groupBy, filters })).totals;
      for (const { node } of apps) {
        // Each app saw the same two sessions: the same counts under its own node.
        expect(await totals('method', { node, kind: 'request', era: 'legacy' })).toMatchObject({ initialize: 1, 'tools/list': 1, 'tools/call': 2 });
        expect(await totals('method', { node, kind: 'request', era: 'modern' })).toMatchObject({ 'tools/list': 1, 'tools/call': 2 });
      }
      expect(Object.keys(await totals('node', {})).sort()).toEqual(['app-1', 'app-2']);
      expect((await store.listSidecarNodes()).map((n) => [n.node, n.kind]).sort()).toEqual([
        ['app-1', 'middleware'],
        ['app-2', 'middleware'],
      ]);
    } finally {
      await store.close();
    }
  });

  test('a plan stored in Postgres is applied by every instrumented app: legacy refused and counted blocked per node, modern served', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const store = await openStore(db.url);
    try {
      await store.insertPlan(planInput({ name: 'Retire the legacy era', announceDate: day(-90), retireDate: day(-1), policyUrl: POLICY_URL }), Date.now());
      const version = await store.getPolicyVersion();
      for (const node of ['app-1', 'app-2']) {
        const metered = meter({ db: db.url, node, enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] }, logger: pino({ level: 'silent' }) });
        const peer = await startMeteredApp('v2-dual', { json: node === 'app-2', metered });
        // The first request waits for the store and the policy compiled from it.
        const refused = await captureV1ConnectError(peer.url);
        expect(metered.policy()?.version).toBe(version);
        expect(refused.message).toContain('-32022');
        expect(refused.message).toContain('supported versions: 2026-07-28.');
        expect((await runV2Session(peer.url, 'pin')).sum).toBe('3');
        await peer.close();
        expect(await metered.close()).toEqual({ spooled: 0, lost: 0 });
      }
      const blocked = await store.listTraffic({ from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'minute', groupBy: 'node', filters: { outcome: 'blocked', era: 'legacy' } });
      expect(blocked.totals).toEqual({ 'app-1': 1, 'app-2': 1 });
    } finally {
      await store.close();
    }
  });
});
