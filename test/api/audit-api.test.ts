import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { legacyPlan } from '../support/enforcement-peers.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const ALICE = 'alice-token-0123456789';
const CI = 'ci-pipeline-token-0123456789';
const SHARED = 'shared-admin-token-0123456789';

describe('the audit trail through the API, with named admin tokens', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), { adminToken: SHARED, adminTokens: [{ name: 'alice', token: ALICE }, { name: 'ci', token: CI }], alerts: { scheduled: false } });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, service.apiUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  test('each change is recorded as the token that made it, newest first, with what changed', async () => {
    const created = await call(ALICE, 'POST', '/api/v1/plans', legacyPlan({ name: 'Retire legacy' }));
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await call(CI, 'PATCH', `/api/v1/plans/${id}`, { exemptions: [{ integration: 'tok_a', until: '2027-01-31', note: 'migrating' }] })).status).toBe(200);
    expect((await call(SHARED, 'POST', '/api/v1/pauses', { plans: [id], for: '1h', reason: 'drill' })).status).toBe(201);
    expect((await call(CI, 'POST', '/api/v1/pauses/resume', { plans: 'all' })).status).toBe(200);
    expect((await call(ALICE, 'POST', '/api/v1/bridge/revocations', { session: 'YmFyZS1pZA', expiresAt: new Date(Date.now() + 3_600_000).toISOString(), reason: 'laptop lost' })).status).toBe(201);
    expect((await call(ALICE, 'DELETE', `/api/v1/plans/${id}`)).status).toBe(200);

    const { status, body } = await call(CI, 'GET', '/api/v1/audit');
    expect(status).toBe(200);
    expect(body.next).toBeNull();
    expect(body.events.map((e: any) => [e.actor, e.action, e.subject.replace(/\d+$/, 'N')])).toEqual([
      ['token:alice', 'plan.archive', 'plan:N'],
      ['token:alice', 'bridge.revoke', 'bridge-session:YmFyZS1pZA'],
      ['token:ci', 'pause.end', 'pause:N'],
      ['admin token', 'pause.start', 'pause:N'],
      ['token:ci', 'plan.update', 'plan:N'],
      ['token:alice', 'plan.create', 'plan:N'],
    ]);
    const update = body.events[4];
    expect(update).toMatchObject({ before: { exemptions: [] }, after: { exemptions: [{ integration: 'tok_a', until: '2027-01-31', note: 'migrating' }] } });
    expect(Date.parse(update.at)).toBeGreaterThan(Date.now() - 60_000);
    // The pause's own record says who paused it too.
    expect(body.events[3].after).toMatchObject({ planId: id, reason: 'drill', pausedBy: 'admin token' });

    const page = await call(CI, 'GET', '/api/v1/audit?limit=2');
    expect(page.body.events).toHaveLength(2);
    const rest = await call(CI, 'GET', `/api/v1/audit?limit=10&before=${page.body.next}`);
    expect(rest.body.events.map((e: any) => e.id)).toEqual(body.events.slice(2).map((e: any) => e.id));
    expect((await call(CI, 'GET', `/api/v1/audit?subject=plan:${id}`)).body.events.map((e: any) => e.action)).toEqual(['plan.archive', 'plan.update', 'plan.create']);
  });

  test.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['before=-1', 'before'],
    ['subject=', 'subject'],
    ['actor=alice', 'actor'],
  ])('?%s is refused with 400 naming %s', async (query, parameter) => {
    const { status, body } = await call(ALICE, 'GET', `/api/v1/audit?${query}`);
    expect(status).toBe(400);
    expect(body.error.parameter).toBe(parameter);
  });

  test('a token that is none of them is refused, and changes nothing', async () => {
    const before = (await call(ALICE, 'GET', '/api/v1/audit')).body.events.length;
    expect((await call('not-any-of-the-tokens-000', 'POST', '/api/v1/plans', legacyPlan({ name: 'x' }))).status).toBe(401);
    expect((await call(ALICE, 'GET', '/api/v1/audit')).body.events.length).toBe(before);
  });
});
