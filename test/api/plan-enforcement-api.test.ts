import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const POLICY = 'https://example.test/legacy-retirement';
const LEGACY = { kind: 'era', value: 'legacy' };

async function send(service: TestService, method: string, path: string, body?: unknown) {
  const response = await fetch(new URL(path, service.apiUrl), {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A valid plan to vary: announced 2027-01-01, retired 2027-07-01. */
function plan(overrides: Record<string, unknown> = {}) {
  return { name: 'Retire legacy', scope: LEGACY, announceDate: '2027-01-01', retireDate: '2027-07-01', ...overrides };
}

describe('plan enforcement fields through the API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  const version = () => service.store!.getPolicyVersion();
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin));
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('a plan without the new fields gets the defaults: observe, no block-new date, 30 quiet days, no gate, no exemptions, not declared', async () => {
    const created = await send(service, 'POST', '/api/v1/plans', plan());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ action: 'observe', blockNewCallersFrom: null, quietDays: 30, gate: null, exemptions: [], policyUrl: null, declaredKey: null });
  });

  test('a deny plan whose scope carries modern clients needs acknowledging, at creation and when a change makes it so', async () => {
    for (const scope of [{ kind: 'transport', value: 'streamable-http' }, { kind: 'transport', value: 'stdio' }, { kind: 'version', value: '2026-07-28' }]) {
      const refused = await send(service, 'POST', '/api/v1/plans', plan({ scope, action: 'deny', policyUrl: POLICY }));
      expect(refused.status).toBe(400);
      expect(refused.body.error.parameter).toBe('acknowledgeRefusingModern');
      expect(refused.body.error.message).toMatch(/modern client cannot fall back/);
      const made = await send(service, 'POST', '/api/v1/plans', plan({ scope, action: 'deny', policyUrl: POLICY, acknowledgeRefusingModern: true }));
      expect(made.status).toBe(201);
      expect(made.body).not.toHaveProperty('acknowledgeRefusingModern');
      // A change that leaves action and scope alone asks nothing again.
      expect((await send(service, 'PATCH', `/api/v1/plans/${made.body.id}`, { name: 'renamed' })).status).toBe(200);
    }
    // Legacy scopes, and plans that refuse nothing, need no acknowledgement.
    expect((await send(service, 'POST', '/api/v1/plans', plan({ scope: { kind: 'transport', value: 'http+sse' }, action: 'deny', policyUrl: POLICY }))).status).toBe(201);
    expect((await send(service, 'POST', '/api/v1/plans', plan({ scope: { kind: 'version', value: '2025-06-18' }, action: 'deny', policyUrl: POLICY }))).status).toBe(201);
    const observed = await send(service, 'POST', '/api/v1/plans', plan({ scope: { kind: 'version', value: '2026-07-28' }, action: 'dryrun', policyUrl: POLICY }));
    expect(observed.status).toBe(201);
    const toDeny = await send(service, 'PATCH', `/api/v1/plans/${observed.body.id}`, { action: 'deny' });
    expect(toDeny.status).toBe(400);
    expect(toDeny.body.error.parameter).toBe('acknowledgeRefusingModern');
    expect((await send(service, 'PATCH', `/api/v1/plans/${observed.body.id}`, { action: 'deny', acknowledgeRefusingModern: true })).status).toBe(200);
    expect((await send(service, 'POST', '/api/v1/plans', plan({ acknowledgeRefusingModern: false }))).body.error.parameter).toBe('acknowledgeRefusingModern');
  });

  test('every enforcement field is stored and read back as sent', async () => {
    const body = plan({
      action: 'deny',
      policyUrl: POLICY,
      blockNewCallersFrom: '2027-03-01',
      quietDays: 14,
      gate: { backstopDate: '2027-12-31', maxShare: 0.001 },
      exemptions: [
        { integration: 'tok_acme', until: '2027-09-30', note: 'contract until Q3' },
        { integration: 'stdio:ci', until: '2027-08-15' },
      ],
    });
    const created = await send(service, 'POST', '/api/v1/plans', body);
    expect(created.status).toBe(201);
    const read = await service.api(`/api/v1/plans/${created.body.id}`);
    expect(read.body).toMatchObject({
      action: 'deny',
      policyUrl: POLICY,
      blockNewCallersFrom: '2027-03-01',
      quietDays: 14,
      gate: { backstopDate: '2027-12-31', maxShare: 0.001 },
      declaredKey: null,
    });
    // Exemptions come back in the order they lapse; an absent note is null.
    expect(read.body.exemptions).toEqual([
      { integration: 'stdio:ci', until: '2027-08-15', note: null },
      { integration: 'tok_acme', until: '2027-09-30', note: 'contract until Q3' },
    ]);
  });

  test('a gate without maxShare waits on callers alone, and a gate or exemptions can be replaced and removed', async () => {
    const created = await send(service, 'POST', '/api/v1/plans', plan({ gate: { backstopDate: '2027-07-01' }, exemptions: [{ integration: 'tok_a', until: '2027-07-31' }] }));
    expect(created.status).toBe(201);
    expect(created.body.gate).toEqual({ backstopDate: '2027-07-01', maxShare: null });
    const id = created.body.id;

    const regated = await send(service, 'PATCH', `/api/v1/plans/${id}`, { gate: { backstopDate: '2028-01-01', maxShare: 0.02 }, exemptions: [{ integration: 'tok_b', until: '2027-10-01', note: 'n' }] });
    expect(regated.status).toBe(200);
    expect(regated.body.gate).toEqual({ backstopDate: '2028-01-01', maxShare: 0.02 });
    expect(regated.body.exemptions).toEqual([{ integration: 'tok_b', until: '2027-10-01', note: 'n' }]);

    const cleared = await send(service, 'PATCH', `/api/v1/plans/${id}`, { gate: null, exemptions: [] });
    expect(cleared.body).toMatchObject({ gate: null, exemptions: [] });
    expect((await service.api(`/api/v1/plans/${id}`)).body).toMatchObject({ gate: null, exemptions: [] });
  });

  test('a plan whose dates are all past is accepted: it is enforced at once', async () => {
    const created = await send(service, 'POST', '/api/v1/plans', plan({ announceDate: '2020-01-01', retireDate: '2020-06-01', blockNewCallersFrom: '2020-03-01', action: 'deny', policyUrl: POLICY, gate: { backstopDate: '2020-09-01' } }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ announceDate: '2020-01-01', retireDate: '2020-06-01', action: 'deny' });
  });

  test.each([
    ['the block-new date on the announce date', { blockNewCallersFrom: '2027-01-01' }],
    ['the block-new date on the retire date', { blockNewCallersFrom: '2027-07-01' }],
    ['the backstop on the retire date', { gate: { backstopDate: '2027-07-01' } }],
    ['dryrun without a policy URL', { action: 'dryrun' }],
    ['one integration exempted in two plans', { exemptions: [{ integration: 'tok_acme', until: '2027-08-01' }] }],
  ])('the edge case %s is accepted', async (_what, overrides) => {
    expect((await send(service, 'POST', '/api/v1/plans', plan(overrides))).status).toBe(201);
  });

  test.each([
    ['action', { action: 'block' }],
    ['action', { action: null }],
    ['policyUrl', { policyUrl: 'ftp://example.test/policy' }],
    ['blockNewCallersFrom', { blockNewCallersFrom: '2027-02-30' }],
    ['blockNewCallersFrom', { blockNewCallersFrom: '2027-03-01T00:00:00Z' }],
    ['quietDays', { quietDays: 0 }],
    ['quietDays', { quietDays: 1.5 }],
    ['quietDays', { quietDays: 3651 }],
    ['quietDays', { quietDays: '30' }],
    ['gate.backstopDate', { gate: { maxShare: 0.01 } }],
    ['gate.backstopDate', { gate: { backstopDate: 'next year' } }],
    ['gate.maxShare', { gate: { backstopDate: '2027-12-31', maxShare: 0 } }],
    ['gate.maxShare', { gate: { backstopDate: '2027-12-31', maxShare: 1 } }],
    ['gate', { gate: '2027-12-31' }],
    ['exemptions', { exemptions: { integration: 'tok_a', until: '2027-08-01' } }],
    ['exemptions.0.integration', { exemptions: [{ integration: ' ', until: '2027-08-01' }] }],
    ['exemptions.0.until', { exemptions: [{ integration: 'tok_a', until: '2027-08-32' }] }],
    ['exemptions.0.until', { exemptions: [{ integration: 'tok_a' }] }],
    ['exemptions.0.note', { exemptions: [{ integration: 'tok_a', until: '2027-08-01', note: 'x'.repeat(501) }] }],
    ['declaredKey', { declaredKey: 'sneaky' }],
  ])('POST with a bad %s answers 400 naming it', async (field, overrides) => {
    const before = await version();
    const { status, body } = await send(service, 'POST', '/api/v1/plans', plan(overrides));
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.parameter).toBe(field);
    expect(await version()).toBe(before);
  });

  test.each([
    ['retireDate', 'the retire date on the announce date', { retireDate: '2027-01-01' }],
    ['retireDate', 'the retire date before the announce date', { retireDate: '2026-12-31' }],
    ['blockNewCallersFrom', 'the block-new date before the announce date', { blockNewCallersFrom: '2026-12-31' }],
    ['blockNewCallersFrom', 'the block-new date after the retire date', { blockNewCallersFrom: '2027-07-02' }],
    ['gate.backstopDate', 'the backstop before the retire date', { gate: { backstopDate: '2027-06-30' } }],
    ['policyUrl', 'warn without a policy URL', { action: 'warn' }],
    ['policyUrl', 'deny without a policy URL', { action: 'deny', policyUrl: null }],
    ['exemptions.1.integration', 'one integration exempted twice', { exemptions: [{ integration: 'tok_a', until: '2027-08-01' }, { integration: 'tok_a', until: '2027-09-01' }] }],
  ])('POST breaking a rule between fields answers 400 naming %s (%s)', async (field, _rule, overrides) => {
    const before = await version();
    const { status, body } = await send(service, 'POST', '/api/v1/plans', plan(overrides));
    expect(status).toBe(400);
    expect(body.error.parameter).toBe(field);
    expect(body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    expect(await version()).toBe(before);
  });

  test('a change is checked against the whole plan it makes, and a refused change stores nothing', async () => {
    const created = await send(service, 'POST', '/api/v1/plans', plan({ blockNewCallersFrom: '2027-03-01', gate: { backstopDate: '2027-09-01' } }));
    const id = created.body.id;
    const before = await version();
    const refusals: [Record<string, unknown>, string][] = [
      [{ action: 'deny' }, 'policyUrl'],
      [{ announceDate: '2027-04-01' }, 'blockNewCallersFrom'],
      [{ retireDate: '2027-10-01' }, 'gate.backstopDate'],
      [{ retireDate: '2027-02-01' }, 'blockNewCallersFrom'],
      [{ exemptions: [{ integration: 'tok_a', until: '2027-08-01' }, { integration: 'tok_a', until: '2027-08-02' }] }, 'exemptions.1.integration'],
    ];
    for (const [patch, field] of refusals) {
      const { status, body } = await send(service, 'PATCH', `/api/v1/plans/${id}`, patch);
      expect({ patch, status, field: body.error?.parameter }).toEqual({ patch, status: 400, field });
    }
    expect(await version()).toBe(before);
    expect((await service.api(`/api/v1/plans/${id}`)).body).toMatchObject({ action: 'observe', announceDate: '2027-01-01', retireDate: '2027-07-01' });
    // Both at once is coherent.
    const both = await send(service, 'PATCH', `/api/v1/plans/${id}`, { action: 'deny', policyUrl: POLICY });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ action: 'deny', policyUrl: POLICY });
  });

  test('the policy version goes up by one with each create, change and archive', async () => {
    const start = await version();
    const created = await send(service, 'POST', '/api/v1/plans', plan());
    expect(await version()).toBe(start + 1);
    await send(service, 'PATCH', `/api/v1/plans/${created.body.id}`, { action: 'dryrun' });
    expect(await version()).toBe(start + 2);
    await send(service, 'PATCH', `/api/v1/plans/${created.body.id}`, { exemptions: [{ integration: 'tok_a', until: '2027-08-01' }] });
    expect(await version()).toBe(start + 3);
    await send(service, 'DELETE', `/api/v1/plans/${created.body.id}`);
    expect(await version()).toBe(start + 4);
    // Reads do not count.
    await service.api('/api/v1/plans?includeArchived=true');
    await service.api(`/api/v1/plans/${created.body.id}`);
    expect(await version()).toBe(start + 4);
  });
});

describe('plans declared in the config file, through the API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), {
      plans: [
        {
          key: 'legacy-2027',
          name: 'Retire legacy',
          scope: LEGACY,
          announceDate: '2027-01-01',
          retireDate: '2027-07-01',
          action: 'warn',
          policyUrl: POLICY,
          exemptions: [{ integration: 'tok_acme', until: '2027-08-01' }],
        },
      ],
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  const declared = async () => {
    const { body } = await service.api('/api/v1/plans');
    return body.plans.find((p: { declaredKey: string | null }) => p.declaredKey === 'legacy-2027');
  };

  test('are listed with their key and their fields', async () => {
    expect(await declared()).toMatchObject({ name: 'Retire legacy', action: 'warn', policyUrl: POLICY, declaredKey: 'legacy-2027', exemptions: [{ integration: 'tok_acme', until: '2027-08-01', note: null }] });
  });

  test('cannot be changed or archived through the API: 409 naming the key, and nothing moves', async () => {
    const plan = await declared();
    const version = await service.store!.getPolicyVersion();
    const patched = await send(service, 'PATCH', `/api/v1/plans/${plan.id}`, { name: 'Renamed' });
    expect(patched.status).toBe(409);
    expect(patched.body.error.code).toBe('conflict');
    expect(patched.body.error.message).toContain('legacy-2027');
    const archived = await send(service, 'PATCH', `/api/v1/plans/${plan.id}`, { archived: true });
    expect(archived.status).toBe(409);
    const deleted = await send(service, 'DELETE', `/api/v1/plans/${plan.id}`);
    expect(deleted.status).toBe(409);
    expect(await service.store!.getPolicyVersion()).toBe(version);
    expect(await declared()).toMatchObject({ name: 'Retire legacy', archivedAt: null });
  });

  test('beside them, a plan created through the API stays editable', async () => {
    const created = await send(service, 'POST', '/api/v1/plans', plan());
    expect(created.body.declaredKey).toBeNull();
    expect((await send(service, 'PATCH', `/api/v1/plans/${created.body.id}`, { name: 'Mine' })).status).toBe(200);
    expect((await send(service, 'DELETE', `/api/v1/plans/${created.body.id}`)).status).toBe(200);
  });
});
