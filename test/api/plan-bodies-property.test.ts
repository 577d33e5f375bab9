import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { legacyPlan } from '../support/enforcement-peers.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

/**
 * Whatever body a client sends to make or change a plan, the API answers it (201/200) or refuses it
 * with 400 naming the field at fault: never a 500. Bodies are a valid plan with fields replaced,
 * removed or added, nested schedule and gate fields included, by values of every JSON type.
 */
const FIELDS = ['name', 'scope', 'announceDate', 'retireDate', 'targetShare', 'basis', 'policyUrl', 'brownouts', 'brownoutSchedule', 'action', 'blockNewCallersFrom', 'quietDays', 'gate', 'exemptions', 'noticeDays', 'acknowledgeRefusingModern'];
const SCHEDULE = { firstDate: '2027-03-16', startTime: '14:00', timeZone: 'Europe/Berlin', durations: ['1h', '4h'], everyDays: 7 };
const SCHEDULE_FIELDS = Object.keys(SCHEDULE);

/** Values a field may be given: any JSON, and strings and numbers near the edges of what fields take. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('', ' ', '9999-12-31', '0000-01-01', '2027-02-30', '24:00', '1e309', 'Europe/Berlin', 'legacy', 'deny', '1h', '8d', 'P1D'),
  fc.constantFrom(0, -1, 1.5, 1e9, Number.MAX_SAFE_INTEGER, -0),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);

// Mostly whole schedules with one or two fields changed: a fault deep in one field is found only
// when the rest of the schedule passes.
const scheduleBody = fc.record({
  drop: fc.subarray(SCHEDULE_FIELDS, { maxLength: 1 }),
  set: fc.dictionary(fc.constantFrom(...SCHEDULE_FIELDS, 'weekdays'), value, { maxKeys: 2 }),
}).map(({ drop, set }) => {
  const schedule: Record<string, unknown> = { ...SCHEDULE };
  for (const field of drop) delete schedule[field];
  return { ...schedule, ...set };
});

const planBody = fc.record({
  drop: fc.subarray(FIELDS, { maxLength: 3 }),
  set: fc.dictionary(fc.constantFrom(...FIELDS, 'colour'), value, { maxKeys: 3 }),
  schedule: fc.option(scheduleBody, { nil: undefined }),
  gate: fc.option(fc.dictionary(fc.constantFrom('backstopDate', 'maxShare', 'x'), value, { maxKeys: 2 }), { nil: undefined }),
}).map(({ drop, set, schedule, gate }) => {
  const body: Record<string, unknown> = legacyPlan({ name: 'Property' });
  for (const field of drop) delete body[field];
  Object.assign(body, set);
  if (schedule !== undefined) body.brownoutSchedule = schedule;
  if (gate !== undefined) body.gate = gate;
  return body;
});

describe('the plans API answers any body it is sent, and never with a 500', () => {
  let service: TestService;
  let planId: number;
  beforeAll(async () => {
    // The upstream is never asked: only the API is.
    service = await startTestService(new URL('http://127.0.0.1:9/mcp'));
    const response = await send('POST', '/api/v1/plans', legacyPlan({ name: 'Changed by the property' }));
    expect(response.status).toBe(201);
    planId = ((await response.json()) as { id: number }).id;
  });
  afterAll(() => service?.dispose());

  const send = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
    fetch(new URL(path, service.apiUrl), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function answered(method: 'POST' | 'PATCH', path: string, body: Record<string, unknown>, ok: number): Promise<void> {
    const response = await send(method, path, body);
    const json = (await response.json()) as { error?: { code: string; parameter?: string; message: string } };
    const seen = `${method} ${JSON.stringify(body)} → ${response.status} ${JSON.stringify(json).slice(0, 300)}`;
    expect([ok, 400], seen).toContain(response.status);
    if (response.status === 400) {
      expect(json.error?.code, seen).toBe('invalid_parameter');
      expect(typeof json.error?.parameter, seen).toBe('string');
    }
  }

  test('POST /api/v1/plans', async () => {
    await fc.assert(fc.asyncProperty(planBody, (body) => answered('POST', '/api/v1/plans', body, 201)), { numRuns: 500 });
  });

  test('PATCH /api/v1/plans/:id', async () => {
    await fc.assert(fc.asyncProperty(planBody, fc.subarray(FIELDS, { minLength: 1, maxLength: 4 }), (body, keep) => {
      const change = Object.fromEntries(Object.entries(body).filter(([field]) => keep.includes(field) || !FIELDS.includes(field)));
      return answered('PATCH', `/api/v1/plans/${planId}`, change, 200);
    }), { numRuns: 500 });
  });
});
