import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDashboard, type RunningDashboard } from '../../../server/cli/start-dashboard.js';
import { loadConfig } from '../../../server/config/load-config.js';
import { createLogger } from '../../../server/lib/create-logger.js';
import type { Store } from '../../../server/store/store.js';
import type { TallyCell } from '../../../server/tally/tally-cell.js';
import { BACKENDS, cell, DAY, DAY_START, NOON, sighting, sumOf, useStores } from './backends.js';

/** Eight weeks of two nodes' traffic: five callers, the legacy ones moving to the modern era one by one. */
function history(): TallyCell[] {
  const cells: TallyCell[] = [];
  for (let d = 55; d >= 0; d -= 1) {
    const minute = DAY_START - d * DAY + 10 * 3_600_000;
    for (const [i, caller] of ['tok_a', 'tok_b', 'tok_c', 'tok_d', 'anonymous'].entries()) {
      const legacy = d > i * 12;
      const node = i % 2 === 0 ? 'edge-a' : 'edge-b';
      const path = legacy ? {} : { era: 'modern' as const, reason: 'modern-meta' as const, version: '2026-07-28' };
      cells.push(cell({ minute, node, integration: caller, count: 10 + i, ...path }));
      cells.push(cell({ minute, node, integration: caller, method: legacy ? 'initialize' : 'server/discover', reason: legacy ? 'initialize' : 'modern-meta', count: 1, ...(legacy ? {} : path) }));
      if (d % 7 === 0) cells.push(cell({ minute, node, integration: caller, outcome: 'server-error', count: 2, ...path }));
    }
  }
  return cells;
}

const PLANS = [
  { name: 'Retire the legacy era', scope: { kind: 'era', value: 'legacy' }, announceDate: '2026-09-01', retireDate: '2027-01-31', action: 'dryrun', gate: { backstopDate: '2027-03-01', maxShare: 0.05 }, exemptions: [{ integration: 'tok_a', until: '2027-02-15' }] },
  { name: 'Drop 2025-06-18', scope: { kind: 'version', value: '2025-06-18' }, announceDate: '2026-10-01', retireDate: '2026-12-31', brownouts: [{ startsAt: '2026-12-10T14:00:00Z', endsAt: '2026-12-10T16:00:00Z' }] },
];

/** The answers everything above the store gives, over HTTP, after the same writes through the same API. */
async function answers(dashboard: RunningDashboard, store: Store, cells: TallyCell[]): Promise<Record<string, unknown>> {
  const api = async (path: string, init?: RequestInit) => {
    const response = await fetch(new URL(path, dashboard.apiUrl), init);
    const body = response.headers.get('content-type')?.includes('json') ? await response.json() : await response.text();
    return { status: response.status, body };
  };
  const send = (method: string, path: string, body: unknown) => api(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const days = (n: number) => new Date(NOON - n * DAY).toISOString();

  for (let i = 0; i < cells.length; i += 200) {
    const chunk = cells.slice(i, i + 200);
    await store.writeTally([{ stream: 'contract-api', node: chunk[0]!.node, seq: i / 200 + 1, batch: { cells: chunk, integrations: [] } }], NOON);
  }
  await store.writeTally([{ stream: 'contract-api-sightings', node: 'edge-a', seq: 1, batch: { cells: [], integrations: ['tok_a', 'tok_b', 'tok_c', 'tok_d'].map((key) => sighting({ key, firstSeen: DAY_START - 55 * DAY, lastSeen: NOON })) } }], NOON);

  const out: Record<string, unknown> = {};
  for (const plan of PLANS) out[`POST plan ${plan.name}`] = await send('POST', '/api/v1/plans', plan);
  out['PATCH integration'] = await send('PATCH', '/api/v1/integrations/tok_b', { owner: 'Billing', status: 'contacted' });
  out['PATCH plan'] = await send('PATCH', '/api/v1/plans/2', { targetShare: 0.01 });
  for (const path of [
    `/api/v1/traffic?bucket=day&groupBy=era&from=${days(60)}`,
    `/api/v1/traffic?bucket=day&groupBy=method&node=edge-b&from=${days(60)}`,
    `/api/v1/traffic?bucket=hour&groupBy=integration&era=legacy&from=${days(3)}`,
    `/api/v1/traffic?bucket=minute&groupBy=outcome&from=${days(1)}`,
    `/api/v1/share?scope=era:legacy&from=${days(56)}`,
    `/api/v1/share?scope=era:legacy&bucket=week&basis=all-requests&from=${days(56)}`,
    `/api/v1/share?scope=era:legacy&node=edge-a&from=${days(56)}`,
    `/api/v1/share?plan=1&from=${days(56)}`,
    '/api/v1/plans',
    '/api/v1/plans/1',
    '/api/v1/plans/1/dry-run',
    '/api/v1/plans/1/dry-run?format=csv&at=2026-12-15',
    '/api/v1/integrations',
    '/api/v1/integrations/tok_b',
    '/api/v1/fleet',
  ]) {
    out[`GET ${path}`] = await api(path);
  }
  out['POST alerts/evaluate'] = await send('POST', '/api/v1/alerts/evaluate', {});
  out['GET alerts'] = await api('/api/v1/alerts');
  out['DELETE plan'] = await api('/api/v1/plans/2', { method: 'DELETE', headers: { 'content-type': 'application/json' } });
  out['GET plans with archived'] = await api('/api/v1/plans?includeArchived=true');
  return out;
}

describe('the API over each backend: the same writes give the same answers', () => {
  const results = new Map<string, Record<string, unknown>>();
  const cells = history();

  for (const [dialect, backend] of BACKENDS) {
    const stores = useStores(backend);
    beforeAll(async () => {
      const location = await stores.freshLocation();
      const config = loadConfig({ flags: { db: location, dashboard: '127.0.0.1:0', node: 'dashboard', logLevel: 'silent' }, file: { alerts: { scheduled: false } } });
      const dashboard = await startDashboard({ config, logger: createLogger('silent'), now: () => NOON });
      const store = await stores.open(location);
      try {
        results.set(dialect, await answers(dashboard, store, cells));
      } finally {
        await dashboard.stop();
      }
    });
  }
  afterAll(() => results.clear());

  test('every answer succeeds, and the counts are what was written', () => {
    for (const [dialect, out] of results) {
      for (const [name, answer] of Object.entries(out)) expect({ dialect, name, status: (answer as { status: number }).status }).toEqual({ dialect, name, status: name.startsWith('POST plan') ? 201 : 200 });
      const eras = (out[`GET /api/v1/traffic?bucket=day&groupBy=era&from=${new Date(NOON - 60 * DAY).toISOString()}`] as { body: { totals: Record<string, number> } }).body.totals;
      expect(eras).toEqual({ legacy: sumOf(cells, (c) => c.era === 'legacy'), modern: sumOf(cells, (c) => c.era === 'modern') });
    }
  });

  test('SQLite and Postgres answer alike, answer for answer', () => {
    const sqlite = results.get('sqlite')!;
    const postgres = results.get('postgres')!;
    expect(Object.keys(postgres)).toEqual(Object.keys(sqlite));
    for (const name of Object.keys(sqlite)) expect({ name, answer: postgres[name] }).toEqual({ name, answer: sqlite[name] });
  });
});
