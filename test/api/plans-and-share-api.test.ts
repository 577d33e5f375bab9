import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { seedDailyTraffic } from '../support/seed-daily-traffic.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const DAY_MS = 86_400_000;
const NOW = Date.now();

function day(offsetDays: number): string {
  return new Date(NOW + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

async function send(service: TestService, method: string, path: string, body?: unknown) {
  const response = await fetch(new URL(path, service.apiUrl), {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('plans and the share curve through the API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin));
    // 20 weeks: a steady exponential decline of the legacy share, halving every 4 weeks.
    seedDailyTraffic(service.database().db, {
      days: 140,
      now: NOW,
      servedPerDay: 10_000,
      legacyShare: (i) => 0.4 * 0.5 ** ((i - 139) / 28 + 5),
      legacyCallers: { tok_acme: 3, tok_globex: 1, anonymous: 1 },
      refusedPerDay: 7,
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('GET /share draws the legacy curve with a falling, significant trend and a projection', async () => {
    const { status, body } = await service.api(`/api/v1/share?bucket=day&from=${new Date(NOW - 30 * DAY_MS).toISOString()}`);
    expect(status).toBe(200);
    expect(body.scope).toEqual({ kind: 'era', value: 'legacy' });
    expect(body.series.length).toBeGreaterThanOrEqual(30);
    const seeded = body.series.filter((p: { served: number }) => p.served > 0);
    expect(seeded.every((p: { served: number }) => p.served === 10_000)).toBe(true);
    expect(seeded.every((p: { refused: number }) => p.refused === 7)).toBe(true);
    expect(body.trend.kind).toBe('fitted');
    expect(body.trend.significantDecrease).toBe(true);
    expect(body.trend.flat).toBe(false);
    expect(Date.parse(body.trend.projectedDate)).toBeGreaterThan(NOW);
    expect(body.trend.line.length).toBeGreaterThan(4);
  });

  test('a plan is created, judged against the curve, listed, changed and archived', async () => {
    const created = await send(service, 'POST', '/api/v1/plans', {
      name: 'Retire legacy',
      scope: { kind: 'era', value: 'legacy' },
      announceDate: day(-120),
      retireDate: day(365),
      targetShare: 0.005,
    });
    expect(created.status).toBe(201);
    expect(created.body.basis).toBe('work-requests');
    expect(created.body.status.status).toBe('on-track');
    expect(created.body.status.reason).toMatch(/0\.50%/);
    expect(created.body.series.length).toBeGreaterThan(100);
    const id = created.body.id;

    const listed = await service.api('/api/v1/plans');
    expect(listed.body.plans.map((p: { id: number }) => p.id)).toEqual([id]);

    const tooSoon = await send(service, 'PATCH', `/api/v1/plans/${id}`, { retireDate: day(7) });
    expect(tooSoon.status).toBe(200);
    expect(tooSoon.body.status.status).toBe('off-track');

    const share = await service.api(`/api/v1/share?plan=${id}&bucket=week`);
    expect(share.body.plan.status.status).toBe('off-track');
    expect(share.body.basis).toBe('work-requests');

    const allRequests = await send(service, 'PATCH', `/api/v1/plans/${id}`, { basis: 'all-requests' });
    expect(allRequests.body.basis).toBe('all-requests');
    expect((await service.api(`/api/v1/share?plan=${id}&bucket=week`)).body.basis).toBe('all-requests');
    expect(share.body.target).toBe(0.005);

    const archived = await send(service, 'DELETE', `/api/v1/plans/${id}`);
    expect(archived.body.archivedAt).not.toBeNull();
    expect((await service.api('/api/v1/plans')).body.plans).toEqual([]);
    expect((await service.api('/api/v1/plans?includeArchived=true')).body.plans).toHaveLength(1);
  });

  test('an http+sse plan is judged on its own scope', async () => {
    const created = await send(service, 'POST', '/api/v1/plans', {
      name: 'Drop HTTP+SSE',
      scope: { kind: 'transport', value: 'http+sse' },
      announceDate: day(-10),
      retireDate: day(60),
    });
    expect(created.status).toBe(201);
    // No HTTP+SSE traffic at all: the target is already met.
    expect(created.body.status.status).toBe('met');
  });

  test.each([
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'era', value: 'modern' }, announceDate: day(0), retireDate: day(10) }, 'scope.value'],
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'era', value: 'legacy' }, announceDate: '2026-02-30', retireDate: day(10) }, 'announceDate'],
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'era', value: 'legacy' }, announceDate: day(10), retireDate: day(0) }, 'retireDate'],
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'era', value: 'legacy' }, announceDate: day(0), retireDate: day(10), targetShare: 5 }, 'targetShare'],
    ['POST', '/api/v1/plans', { name: '', scope: { kind: 'era', value: 'legacy' }, announceDate: day(0), retireDate: day(10) }, 'name'],
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'transport', value: 'pigeon' }, announceDate: day(0), retireDate: day(10) }, 'scope.value'],
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'era', value: 'legacy' }, announceDate: day(0), retireDate: day(10), colour: 'red' }, 'colour'],
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'era', value: 'legacy' }, announceDate: day(0), retireDate: day(10), brownouts: [{ startsAt: '2027-01-02T00:00:00Z', endsAt: '2027-01-01T00:00:00Z' }] }, 'brownouts.0.endsAt'],
    ['POST', '/api/v1/plans', { name: 'x', scope: { kind: 'era', value: 'legacy' }, announceDate: day(0), retireDate: day(10), basis: 'sessions' }, 'basis'],
    ['PATCH', '/api/v1/plans/1', { basis: 'work' }, 'basis'],
    ['PATCH', '/api/v1/plans/1', {}, undefined],
    ['PATCH', '/api/v1/plans/abc', { name: 'y' }, 'id'],
  ])('%s %s with bad input answers 400 naming the field', async (method, path, body, field) => {
    const { status, body: answer } = await send(service, method, path, body);
    expect(status).toBe(400);
    expect(answer.error.code).toBe('invalid_parameter');
    if (field !== undefined) expect(answer.error.parameter).toBe(field);
  });

  test('malformed JSON answers 400', async () => {
    const { status, body } = await send(service, 'POST', '/api/v1/plans', '{"name": ');
    expect(status).toBe(400);
    expect(body.error.message).toBeTruthy();
  });

  test('an unknown plan answers 404', async () => {
    expect((await send(service, 'PATCH', '/api/v1/plans/999', { name: 'y' })).status).toBe(404);
    expect((await service.api('/api/v1/share?plan=999')).status).toBe(404);
  });

  test.each([
    ['scope=era:modern', 'scope'],
    ['scope=transport:pigeon', 'scope'],
    ['bucket=month', 'bucket'],
    ['target=2', 'target'],
    ['plan=1&scope=era:legacy', 'plan'],
    ['plan=1&basis=all-requests', 'plan'],
    ['basis=sessions', 'basis'],
    ['from=2020-01-01T00:00:00Z', 'from'],
    ['width=3', 'width'],
  ])('GET /share?%s answers 400 naming %s', async (query, parameter) => {
    const { status, body } = await service.api(`/api/v1/share?${query}`);
    expect(status).toBe(400);
    expect(body.error.parameter).toBe(parameter);
  });
});

describe('the integrations registry through the API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin));
    seedDailyTraffic(service.database().db, {
      days: 60,
      now: NOW,
      servedPerDay: 1_000,
      legacyShare: () => 0.2,
      legacyCallers: { tok_acme: 6, tok_globex: 2, anonymous: 2 },
    });
    await send(service, 'POST', '/api/v1/plans', { name: 'Retire legacy', scope: { kind: 'era', value: 'legacy' }, announceDate: day(-30), retireDate: day(30) });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('lists callers by legacy volume with the identifiable / unknown split and deadline labels', async () => {
    const { status, body } = await service.api('/api/v1/integrations');
    expect(status).toBe(200);
    expect(body.integrations.map((i: { key: string }) => i.key)).toEqual(['tok_acme', 'anonymous', 'tok_globex', 'tok_modern']);
    const [acme, anonymous, , modern] = body.integrations;
    // The window is today and the 29 days before; the seeded history ends yesterday.
    const days = 29;
    expect(acme).toMatchObject({ identifiable: true, legacyServed: days * 120, served: days * 120, legacyShare: 1, claimsToBe: { name: 'tok_acme-client', version: '1.0' } });
    expect(acme.deadlines).toEqual([expect.objectContaining({ state: 'fix-by', label: `Fix by ${day(30)}` })]);
    expect(anonymous.identifiable).toBe(false);
    expect(modern.deadlines[0]).toMatchObject({ state: 'ok', label: 'OK' });
    expect(body.split).toEqual({ identifiable: days * 160, unknown: days * 40, total: days * 200, identifiableShare: 0.8 });
  });

  test('an operator\'s edits are saved and shown beside what was measured', async () => {
    const saved = await send(service, 'PATCH', '/api/v1/integrations/tok_acme', { displayName: 'Acme billing', owner: 'Dana', status: 'contacted', notes: 'Migrating in Q1' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ key: 'tok_acme', displayName: 'Acme billing', owner: 'Dana', status: 'contacted', notes: 'Migrating in Q1' });
    expect(Date.parse(saved.body.updatedAt)).toBeGreaterThan(0);
    expect((await service.api('/api/v1/integrations/tok_acme')).body.owner).toBe('Dana');
  });

  test.each([
    [{ status: 'ignored' }, 'status'],
    [{ owner: 'x'.repeat(300) }, 'owner'],
    [{ key: 'tok_other' }, 'key'],
    [{}, undefined],
  ])('bad edits %j answer 400', async (patch, field) => {
    const { status, body } = await send(service, 'PATCH', '/api/v1/integrations/tok_acme', patch);
    expect(status).toBe(400);
    if (field !== undefined) expect(body.error.parameter).toBe(field);
  });

  test('an unknown caller answers 404', async () => {
    expect((await send(service, 'PATCH', '/api/v1/integrations/tok_nobody', { owner: 'x' })).status).toBe(404);
    expect((await service.api('/api/v1/integrations/tok_nobody')).status).toBe(404);
  });
});

describe('the admin token', () => {
  test('is required on every API call when configured, and not on /healthz', async () => {
    const upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    const service = await startTestService(new URL(upstream.origin), { adminToken: 'admin-token-0123456789' });
    try {
      const denied = await service.api('/api/v1/plans');
      expect(denied.status).toBe(401);
      expect(denied.body.error.code).toBe('unauthorized');
      const allowed = await fetch(new URL('/api/v1/plans', service.apiUrl), { headers: { authorization: 'Bearer admin-token-0123456789' } });
      expect(allowed.status).toBe(200);
      const wrong = await fetch(new URL('/api/v1/traffic', service.apiUrl), { headers: { authorization: 'Bearer admin-token-012345678X' } });
      expect(wrong.status).toBe(401);
      expect((await service.api('/healthz')).status).toBe(200);
    } finally {
      await service.dispose();
      await upstream.close();
    }
  });
});
