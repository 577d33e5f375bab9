import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

let now = Date.UTC(2026, 11, 7, 12);
const HOUR = 3_600_000;
const iso = (at: number) => new Date(at).toISOString();

async function post(service: TestService, path: string, body: unknown) {
  const response = await fetch(new URL(path, service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('pausing and resuming plans through the API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), { alerts: { scheduled: false } }, () => now);
    ids.deny = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'deny' }))).id;
    ids.dryrun = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'dryrun', action: 'dryrun', scope: { kind: 'transport', value: 'http+sse' } }))).id;
    ids.observe = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'observe', action: 'observe', scope: { kind: 'version', value: '2025-03-26' } }))).id;
    ids.archived = (await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'archived', scope: { kind: 'version', value: '2024-11-05' } }))).id;
    const archived = await fetch(new URL(`/api/v1/plans/${ids.archived}`, service.apiUrl), { method: 'DELETE', headers: { 'content-type': 'application/json' } });
    expect(archived.status).toBe(200);
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test.each([
    [{ plans: [1], reason: 'x' }, 'for'],
    [{ plans: [1], for: '24 hours', reason: 'x' }, 'for'],
    [{ plans: [1], for: '0m', reason: 'x' }, 'for'],
    [{ plans: [1], for: '31d', reason: 'x' }, 'for'],
    [{ plans: [1], for: '1h', reason: '   ' }, 'reason'],
    [{ plans: [1], for: '1h' }, 'reason'],
    [{ plans: [], for: '1h', reason: 'x' }, 'plans'],
    [{ plans: 'some', for: '1h', reason: 'x' }, 'plans'],
    [{ plans: ['1'], for: '1h', reason: 'x' }, 'plans'],
    [{ plans: [1], for: '1h', reason: 'x', until: '2027-01-01' }, 'until'],
  ])('a pause of %j is refused with 400 naming %s, and pauses nothing', async (body, field) => {
    const { status, body: answer } = await post(service, '/api/v1/pauses', body);
    expect(status).toBe(400);
    expect(answer.error.parameter).toBe(field);
    expect(await service.store!.listPlanPauses()).toEqual([]);
  });

  test('a plan that does not exist, or is archived, is refused with 404 naming plans', async () => {
    for (const id of [9999, ids.archived!]) {
      const { status, body } = await post(service, '/api/v1/pauses', { plans: [ids.deny, id], for: '1h', reason: 'x' });
      expect(status).toBe(404);
      expect(body.error).toMatchObject({ parameter: 'plans', message: `plans: no plan ${id} (or it is archived)` });
    }
    expect(await service.store!.listPlanPauses()).toEqual([]);
  });

  test('a pause starts now, for the span given; "all" pauses every live plan that does more than observe; resume ends them', async () => {
    const version = (await service.api('/api/v1/fleet')).body.policyVersion;
    const one = await post(service, '/api/v1/pauses', { plans: [ids.deny, ids.deny], for: '1d12h', reason: ' partner caught ' });
    expect(one.status).toBe(201);
    expect(one.body.pauses).toEqual([
      { id: expect.any(Number), planId: ids.deny, reason: 'partner caught', startedAt: iso(now), endsAt: iso(now + 36 * HOUR), resumedAt: null, until: iso(now + 36 * HOUR), active: true, pausedBy: 'api (no admin token)', resumedBy: null },
    ]);
    // This node enforces the pause before the answer: its policy is already rebuilt.
    expect(service.health().policy.pausedPlans.map((p: { id: number }) => p.id)).toEqual([ids.deny]);
    expect((await service.api('/api/v1/fleet')).body.policyVersion).toBe(version + 1);

    now += HOUR;
    const all = await post(service, '/api/v1/pauses', { plans: 'all', for: '2h', reason: 'incident 42' });
    expect(all.body.pauses.map((p: { planId: number }) => p.planId)).toEqual([ids.deny, ids.dryrun]);
    const plan = (await service.api(`/api/v1/plans/${ids.deny}`)).body;
    expect(plan.enforcement.pause).toEqual({ id: all.body.pauses[0].id, reason: 'incident 42', startedAt: iso(now), endsAt: iso(now + 2 * HOUR), pausedBy: 'api (no admin token)' });
    // The replaced pause ended when the new one began; both are on the timeline.
    expect(plan.enforcement.pauses.map((p: { reason: string; until: string; active: boolean }) => [p.reason, p.until, p.active])).toEqual([
      ['partner caught', iso(now), false],
      ['incident 42', iso(now + 2 * HOUR), true],
    ]);
    expect(plan.enforcement.timeline.filter((w: { kind: string }) => w.kind === 'pause').map((w: { state: string; note: string }) => [w.state, w.note])).toEqual([
      ['past', 'partner caught'],
      ['in-force', 'incident 42'],
    ]);
    expect((await service.api('/api/v1/pauses?active=true')).body.pauses.map((p: { planId: number }) => p.planId)).toEqual([ids.deny, ids.dryrun]);
    expect((await service.api('/api/v1/pauses')).body.pauses).toHaveLength(3);

    now += 10 * 60_000;
    const resumed = await post(service, '/api/v1/pauses/resume', { plans: [ids.dryrun] });
    expect(resumed.status).toBe(200);
    expect(resumed.body.resumed).toMatchObject([{ planId: ids.dryrun, resumedAt: iso(now), until: iso(now), active: false, resumedBy: 'api (no admin token)' }]);
    expect((await post(service, '/api/v1/pauses/resume', { plans: 'all' })).body.resumed.map((p: { planId: number }) => p.planId)).toEqual([ids.deny]);
    // Nothing left to resume is not an error: the answer says so by being empty.
    expect(await post(service, '/api/v1/pauses/resume', { plans: 'all' })).toEqual({ status: 200, body: { resumed: [] } });
    expect((await service.api('/api/v1/pauses?active=true')).body.pauses).toEqual([]);
    expect(service.health().policy.pausedPlans).toEqual([]);
    expect((await service.api(`/api/v1/plans/${ids.deny}`)).body.enforcement.pause).toBeNull();
  });

  test('resume checks the plans it names like pause does', async () => {
    const { status, body } = await post(service, '/api/v1/pauses/resume', { plans: [9999] });
    expect(status).toBe(404);
    expect(body.error.parameter).toBe('plans');
    expect((await post(service, '/api/v1/pauses/resume', {})).body.error.parameter).toBe('plans');
    expect((await service.api('/api/v1/pauses?active=yes')).status).toBe(400);
  });
});
