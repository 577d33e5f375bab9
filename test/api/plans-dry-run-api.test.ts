import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeBatch } from '../support/write-batch.js';
import { runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, type TestService } from '../support/start-test-service.js';
import { trafficCell } from '../store/temp-database.js';

const DAY_MS = 86_400_000;

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

async function post(service: TestService, path: string, body: unknown) {
  const response = await fetch(new URL(path, service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('GET /api/v1/plans/:id/dry-run', () => {
  let peer: Peer;
  let service: TestService;
  let planId: number;
  let legacyKey: string;
  beforeAll(async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin));
    // Real callers through the sidecar: one legacy session and one modern, three work requests each.
    await runV1HttpSession(new URL('/mcp', service.sidecarUrl), { token: 'legacy-caller-token' });
    await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin', { token: 'modern-caller-token' });
    const before = (await service.api('/api/v1/integrations')).body.integrations as { key: string; legacyServed: number }[];
    legacyKey = before.find((i) => i.legacyServed > 0)!.key;
    // Earlier days: a caller the plan exempts, and unidentified legacy traffic a dry run marked.
    const yesterday = Date.now() - DAY_MS;
    await writeBatch(service.store!, {
      cells: [
        trafficCell({ minute: yesterday, integration: 'tok_partner', count: 20 }),
        trafficCell({ minute: yesterday, integration: 'anonymous', transport: 'http+sse', version: '2024-11-05', count: 14, wouldBlockCount: 9 }),
      ],
      integrations: [],
    });
    const plan = await post(service, '/api/v1/plans', {
      name: 'Retire legacy',
      scope: { kind: 'era', value: 'legacy' },
      announceDate: day(-30),
      retireDate: day(90),
      action: 'dryrun',
      quietDays: 14,
      exemptions: [{ integration: 'tok_partner', until: day(120), note: 'contract until summer' }],
    });
    expect(plan.status).toBe(201);
    planId = plan.body.id;
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('answers, for the retire date by default, who would be refused and who an exemption saves, with the live would-block counts', async () => {
    const { status, body } = await service.api(`/api/v1/plans/${planId}/dry-run`);
    expect(status).toBe(200);
    expect(body.planId).toBe(planId);
    expect(body.at).toBe(day(90));
    expect(body.window.days).toBeGreaterThan(13);
    expect(body.window.days).toBeLessThanOrEqual(14);
    expect(body.callers.map((c: { integration: string }) => c.integration)).toEqual(['tok_partner', legacyKey, 'anonymous']);
    expect(body.callers[0]).toMatchObject({ requests: 20, savedBy: { until: day(120), note: 'contract until summer' } });
    expect(body.callers[1]).toMatchObject({ identifiable: true, requests: 3, versions: ['2025-11-25'], transports: ['streamable-http'], savedBy: null });
    expect(body.callers[2]).toMatchObject({ identifiable: false, requests: 14, versions: ['2024-11-05'], transports: ['http+sse'], savedBy: null });
    // Served work: 3 legacy and 3 modern live, 20 and 14 seeded; the exempt 20 pass.
    expect(body.totals).toEqual({ callers: 3, refusedCallers: 2, savedCallers: 1, refusedRequests: 17, servedRequests: 40, refusedPeople: 0 });
    expect(body.refusedShare).toBe(17 / 40);
    expect(body.live).toEqual({ wouldBlock: 9, byCaller: { tok_partner: 0, [legacyKey]: 0, anonymous: 9 } });
  });

  test('a cut date after the exemption lapses refuses its caller too', async () => {
    const { body } = await service.api(`/api/v1/plans/${planId}/dry-run?at=${day(121)}`);
    expect(body.at).toBe(day(121));
    expect(body.totals).toMatchObject({ refusedCallers: 3, savedCallers: 0, refusedRequests: 37 });
  });

  test('gives the callers as CSV for outreach', async () => {
    const response = await fetch(new URL(`/api/v1/plans/${planId}/dry-run?format=csv`, service.apiUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toContain(`plan-${planId}-dry-run-${day(90)}.csv`);
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('integration,display_name,owner,contact,identifiable,requests_per_day,people,last_seen,versions,transports,saved_until,migration,notices_delivered,last_notice_at,last_contact_at');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^tok_partner,,,,true,[\\d.]+,,\\d{4}-\\d{2}-\\d{2}T00:00:00\\.000Z,2025-06-18,streamable-http,${day(120)},legacy-only,0,,$`));
    expect(lines[3]).toMatch(/^anonymous,,,,false,[\d.]+,,[^,]+,2024-11-05,http\+sse,,legacy-only,0,,$/);
  });

  test.each([
    ['?at=2027-02-30', 'at'],
    ['?at=tomorrow', 'at'],
    ['?format=xml', 'format'],
    ['?colour=red', 'colour'],
  ])('bad input %s answers 400 naming the parameter', async (query, parameter) => {
    const { status, body } = await service.api(`/api/v1/plans/${planId}/dry-run${query}`);
    expect(status).toBe(400);
    expect(body.error.parameter).toBe(parameter);
  });

  test('an unknown plan answers 404', async () => {
    expect((await service.api('/api/v1/plans/999/dry-run')).status).toBe(404);
  });
});
