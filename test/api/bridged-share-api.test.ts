/**
 * GET /api/v1/share reports, beside the legacy share, the bridged share: served requests the legacy
 * bridge answered (reason `bridge`) over served requests, on the share's basis. Real SQLite, real
 * service; every expected figure is worked out by hand from the seeded counts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { trafficCell } from '../store/temp-database.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';
import { writeBatch } from '../support/write-batch.js';

const DAY_MS = 86_400_000;
/** Monday 2026-11-30, Tuesday and Wednesday: three seeded days; now is Thursday noon. */
const D0 = Date.UTC(2026, 10, 30);
const D1 = D0 + DAY_MS;
const D2 = D0 + 2 * DAY_MS;
const NOW = D0 + 3 * DAY_MS + DAY_MS / 2;
const iso = (at: number) => new Date(at).toISOString();

const modern: Partial<TallyCell> = { era: 'modern', reason: 'modern-meta', version: '2026-07-28', integration: 'tok_m' };
const bridged: Partial<TallyCell> = { reason: 'bridge', integration: 'tok_b' };
const at = (day: number, cell: Partial<TallyCell>) => trafficCell({ minute: day + 12 * 3_600_000, node: 'edge-a', ...cell });

describe('GET /api/v1/share: the bridged share beside the legacy share', () => {
  let upstream: RawUpstream;
  let service: TestService;
  const share = async (query: string) => {
    const { status, body } = await service.api(`/api/v1/share?from=${iso(D0)}&to=${iso(D0 + 3 * DAY_MS)}${query}`);
    expect(status).toBe(200);
    return body;
  };

  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), {}, () => NOW);
    await writeBatch(service.store!, {
      cells: [
        // D0 work: 30 legacy on their own session, 12 bridged, 58 modern.
        at(D0, { count: 30 }),
        at(D0, { ...bridged, count: 12 }),
        at(D0, { ...modern, count: 58 }),
        // D0 negotiation: 4 initialize answered by the bridge, 6 by the server; a bridged ping; 5 bridged refused by a brownout.
        at(D0, { ...bridged, method: 'initialize', count: 4 }),
        at(D0, { reason: 'initialize', method: 'initialize', count: 6 }),
        at(D0, { ...bridged, method: 'ping', count: 3 }),
        at(D0, { ...bridged, outcome: 'blocked', count: 5 }),
        // D1 work: 10 legacy and 75 modern on edge-a; D2 work: 2 legacy, 8 bridged, 40 modern.
        at(D1, { count: 10 }),
        at(D1, { ...modern, count: 75 }),
        at(D2, { count: 2 }),
        at(D2, { ...bridged, count: 8 }),
        at(D2, { ...modern, count: 40 }),
      ],
      integrations: [],
    });
    // D1: 15 bridged work requests on another node.
    await writeBatch(service.store!, { cells: [at(D1, { ...bridged, node: 'edge-b', count: 15 })], integrations: [] });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('each day of work requests: the bridged share is bridged served work over all served work, inside the legacy share', async () => {
    const body = await share('&bucket=day');
    expect(body.series).toEqual([
      // 30 + 12 + 58 = 100 served; 42 legacy; 12 bridged. Refused: the 5 blocked. Negotiation: 4 + 6. Callers: tok_a, tok_b.
      { start: iso(D0), served: 100, inScope: 42, share: 0.42, refused: 5, failed: 0, probes: 0, negotiation: 10, legacyIntegrations: 2, modernIntegrations: 1, bridged: 12, bridgedShare: 0.12 },
      // 10 + 75 + 15 = 100 served; 25 legacy; 15 bridged (edge-b).
      { start: iso(D1), served: 100, inScope: 25, share: 0.25, refused: 0, failed: 0, probes: 0, negotiation: 0, legacyIntegrations: 2, modernIntegrations: 1, bridged: 15, bridgedShare: 0.15 },
      // 2 + 8 + 40 = 50 served; 10 legacy; 8 bridged.
      { start: iso(D2), served: 50, inScope: 10, share: 0.2, refused: 0, failed: 0, probes: 0, negotiation: 0, legacyIntegrations: 2, modernIntegrations: 1, bridged: 8, bridgedShare: 0.16 },
    ]);
    // The latest day with traffic, D2, for both figures.
    expect(body.currentShare).toBe(0.2);
    expect(body.currentBridgedShare).toBe(0.16);
  });

  test('on all requests, the bridged negotiation and plumbing count too', async () => {
    const body = await share('&bucket=day&basis=all-requests');
    // D0: 100 work + 10 initialize + 3 ping = 113 served; legacy 42 + 10 + 3 = 55; bridged 12 + 4 + 3 = 19.
    expect(body.series[0]).toMatchObject({ served: 113, inScope: 55, share: 55 / 113, bridged: 19, bridgedShare: 19 / 113 });
    expect(body.series[1]).toMatchObject({ served: 100, bridged: 15, bridgedShare: 0.15 });
  });

  test('a week adds its days up', async () => {
    const body = await share('&bucket=week');
    // 100 + 100 + 50 = 250 served; 42 + 25 + 10 = 77 legacy; 12 + 15 + 8 = 35 bridged.
    expect(body.series).toEqual([expect.objectContaining({ start: iso(D0), served: 250, inScope: 77, share: 77 / 250, bridged: 35, bridgedShare: 35 / 250 })]);
  });

  test('one node\'s curve has only its own bridged requests', async () => {
    const a = await share('&bucket=day&node=edge-a');
    expect(a.series[1]).toMatchObject({ served: 85, inScope: 10, bridged: 0, bridgedShare: 0 });
    const b = await share('&bucket=day&node=edge-b');
    expect(b.series.map((p: { bridgedShare: number | null }) => p.bridgedShare)).toEqual([null, 1, null]);
    expect(b.currentBridgedShare).toBe(1);
  });

  test('a plan\'s curve carries the bridged share too', async () => {
    const response = await fetch(new URL('/api/v1/plans', service.apiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Retire legacy', scope: { kind: 'era', value: 'legacy' }, announceDate: '2026-11-01', retireDate: '2027-06-01' }),
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const body = await share(`&bucket=day&plan=${id}`);
    expect(body.series.map((p: { bridged: number }) => p.bridged)).toEqual([12, 15, 8]);
    expect(body.currentBridgedShare).toBe(0.16);
  });
});
