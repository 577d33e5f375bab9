import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { trafficCell } from '../store/temp-database.js';
import { planInput } from '../support/plan-input.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const DAY = 86_400_000;

interface Caller {
  key: string;
  migration: string | null;
  legacyServed: number;
  eras: { legacy: { requests: number; versions: string[]; transports: string[]; firstSeen: string; lastSeen: string } | null; modern: { requests: number; versions: string[]; transports: string[] } | null };
}

/**
 * Real callers through the sidecar in front of the SDK's dual-era server, each with its own bearer
 * token: one on both eras, one on legacy only, one on modern only, and one on modern only that the
 * registry remembers on legacy 40 days ago.
 */
describe('who is already moving', () => {
  let peer: Peer;
  let service: TestService;
  const keys = new Map<string, string>();
  const byKey = async (query = '') => {
    const { status, body } = await service.api(`/api/v1/integrations${query}`);
    expect(status).toBe(200);
    return new Map((body.integrations as Caller[]).map((c) => [c.key, c]));
  };

  beforeAll(async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.url));
    const url = new URL(peer.url.pathname, service.sidecarUrl);
    for (const token of ['both-eras-token', 'legacy-only-token', 'modern-only-token', 'moved-token']) {
      const before = new Set((await byKey()).keys());
      if (token !== 'modern-only-token' && token !== 'moved-token') await runV1HttpSession(url, { token });
      if (token !== 'legacy-only-token') await runV2Session(url, 'pin', { token });
      expect(await service.flush()).toBe(true);
      const added = [...(await byKey()).keys()].filter((k) => !before.has(k));
      expect(added).toHaveLength(1);
      keys.set(token, added[0]!);
    }
    // The registry's memory of legacy use before the window: a day row and a sighting 40 days back.
    const old = Math.floor(Date.now() / DAY) * DAY - 40 * DAY;
    const moved = keys.get('moved-token')!;
    createTallyWriter(service.database().db)({
      cells: [trafficCell({ minute: old, integration: moved, count: 12 })],
      integrations: [{ key: moved, source: 'bearer-fingerprint', firstSeen: old, lastSeen: old, lastLegacySeen: old, clientInfo: undefined }],
    });
  }, 60_000);
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('each caller carries its state and its versions and transports per era', async () => {
    const callers = await byKey();
    const state = (token: string) => callers.get(keys.get(token)!)!;
    expect(state('both-eras-token').migration).toBe('migrating');
    expect(state('legacy-only-token').migration).toBe('legacy-only');
    expect(state('modern-only-token').migration).toBe('modern-only');
    expect(state('moved-token').migration).toBe('moved');

    const both = state('both-eras-token');
    // The v1 session: tools/list and two tools/call are work (initialize is not); the v2 session the same.
    expect(both.eras.legacy).toMatchObject({ requests: 3, transports: ['streamable-http'] });
    expect(both.eras.legacy!.versions).toHaveLength(1);
    expect(both.eras.legacy!.versions[0]).not.toBe('2026-07-28');
    expect(both.eras.modern).toMatchObject({ requests: 3, versions: ['2026-07-28'], transports: ['streamable-http'] });
    expect(Date.parse(both.eras.legacy!.firstSeen)).toBe(Math.floor(Date.now() / DAY) * DAY);
    expect(state('legacy-only-token').eras.modern).toBeNull();
    expect(state('modern-only-token').eras.legacy).toBeNull();
    // The old legacy use is outside the window: the eras say so, the state remembers it.
    expect(state('moved-token').eras.legacy).toBeNull();
  });

  test('?migration= lists only the callers in that state; a bad value is a 400 naming it', async () => {
    for (const [state, token] of [['migrating', 'both-eras-token'], ['legacy-only', 'legacy-only-token'], ['moved', 'moved-token'], ['modern-only', 'modern-only-token']] as const) {
      expect([...(await byKey(`?migration=${state}`)).keys()], state).toEqual([keys.get(token)]);
    }
    const bad = await service.api('/api/v1/integrations?migration=moving');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('migration');
  });

  test('the dry run says whether each refused caller is already moving, in JSON and in CSV', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const retire = new Date(Date.now() + 60 * DAY).toISOString().slice(0, 10);
    const { id } = insertPlan(service.database().db, planInput({ announceDate: today, retireDate: retire, policyUrl: null, action: 'observe', quietDays: 14 }), Date.now());
    const { body } = await service.api(`/api/v1/plans/${id}/dry-run`);
    const refused = new Map((body.callers as { integration: string; migration: string | null }[]).map((c) => [c.integration, c.migration]));
    expect(refused).toEqual(new Map([[keys.get('both-eras-token'), 'migrating'], [keys.get('legacy-only-token'), 'legacy-only']]));
    const csv = await (await fetch(new URL(`/api/v1/plans/${id}/dry-run?format=csv`, service.apiUrl))).text();
    expect(csv).toContain(`${keys.get('both-eras-token')},`);
    expect(csv.split('\r\n').find((line) => line.startsWith(keys.get('both-eras-token')!))).toMatch(/,migrating,0,,$/);
  });
});
