import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { errorOf, legacyPlan, v1HttpAdd } from '../support/enforcement-peers.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const HOUR = 3_600_000;

async function send(service: TestService, method: 'POST' | 'PATCH', path: string, body: unknown) {
  const response = await fetch(new URL(path, service.apiUrl), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('escalating brownouts from a schedule', () => {
  let upstream: Peer;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startV2Server('dual');
    service = await startTestService(new URL(upstream.origin), { enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] }, alerts: { scheduled: false } });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  const schedule = { firstDate: '2027-03-16', startTime: '14:00', timeZone: 'Europe/Berlin', durations: ['1h', '4h', '12h', '1d'], everyDays: 7 };

  test('a plan made with a schedule stores its windows as windows, each saying which step it is', async () => {
    const { status, body } = await send(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Escalating', brownoutSchedule: { ...schedule, note: 'announced on the blog' } }));
    expect(status).toBe(201);
    expect(body.brownouts).toEqual([
      { startsAt: '2027-03-16T13:00:00.000Z', endsAt: '2027-03-16T14:00:00.000Z', note: 'announced on the blog: escalating brownout 1 of 4, 1h from 14:00 Europe/Berlin' },
      { startsAt: '2027-03-23T13:00:00.000Z', endsAt: '2027-03-23T17:00:00.000Z', note: 'announced on the blog: escalating brownout 2 of 4, 4h from 14:00 Europe/Berlin' },
      { startsAt: '2027-03-30T12:00:00.000Z', endsAt: '2027-03-31T00:00:00.000Z', note: 'announced on the blog: escalating brownout 3 of 4, 12h from 14:00 Europe/Berlin' },
      { startsAt: '2027-04-06T12:00:00.000Z', endsAt: '2027-04-07T12:00:00.000Z', note: 'announced on the blog: escalating brownout 4 of 4, 1d from 14:00 Europe/Berlin' },
    ]);
    expect(body.enforcement.timeline.filter((w: { kind: string }) => w.kind === 'brownout').map((w: { at: string }) => w.at)).toEqual(body.brownouts.map((b: { startsAt: string }) => b.startsAt));
    const stored = await service.store!.getPlan(body.id);
    expect(stored!.brownouts.map((b) => b.endsAt - b.startsAt)).toEqual([1, 4, 12, 24].map((h) => h * HOUR));

    // A schedule in a change replaces the windows; the rest of the plan stays.
    const changed = await send(service, 'PATCH', `/api/v1/plans/${body.id}`, { brownoutSchedule: { ...schedule, durations: ['2h'], startTime: '09:30', timeZone: 'UTC' } });
    expect(changed.body.brownouts).toEqual([{ startsAt: '2027-03-16T09:30:00.000Z', endsAt: '2027-03-16T11:30:00.000Z', note: 'escalating brownout 1 of 1, 2h from 09:30 UTC' }]);
    expect(changed.body.name).toBe('Escalating');
  });

  test.each([
    [{ brownouts: [], brownoutSchedule: schedule }, 'brownoutSchedule'],
    [{ brownoutSchedule: { ...schedule, timeZone: 'Mars/Olympus' } }, 'brownoutSchedule.timeZone'],
    [{ brownoutSchedule: { ...schedule, startTime: '24:00' } }, 'brownoutSchedule.startTime'],
    [{ brownoutSchedule: { ...schedule, durations: [] } }, 'brownoutSchedule.durations'],
    [{ brownoutSchedule: { ...schedule, durations: ['1h', 'a while'] } }, 'brownoutSchedule.durations.1'],
    [{ brownoutSchedule: { ...schedule, durations: ['1h', '8d'] } }, 'brownoutSchedule.durations.1'],
    [{ brownoutSchedule: { ...schedule, durations: ['1h', '7d', '1h'] } }, 'brownoutSchedule.durations.1'],
    [{ brownoutSchedule: { ...schedule, everyDays: 0 } }, 'brownoutSchedule.everyDays'],
    [{ brownoutSchedule: { ...schedule, everyDays: 1.5 } }, 'brownoutSchedule.everyDays'],
    [{ brownoutSchedule: { ...schedule, everyDays: '7' } }, 'brownoutSchedule.everyDays'],
    [{ brownoutSchedule: { ...schedule, everyDays: 1e9 } }, 'brownoutSchedule.everyDays'],
    [{ brownoutSchedule: { ...schedule, firstDate: '9999-12-20' } }, 'brownoutSchedule.firstDate'],
    [{ brownoutSchedule: { ...schedule, durations: 'PT1H' } }, 'brownoutSchedule.durations'],
    [{ brownoutSchedule: { ...schedule, firstDate: '2027-02-30' } }, 'brownoutSchedule.firstDate'],
    [{ brownoutSchedule: { ...schedule, weekdays: ['tue'] } }, 'weekdays'],
  ])('%j is refused with 400 naming %s', async (extra, parameter) => {
    const before = (await service.store!.listPlans()).length;
    const { status, body } = await send(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Refused', ...extra }));
    expect(status).toBe(400);
    expect(body.error.parameter).toBe(parameter);
    expect((await service.store!.listPlans()).length).toBe(before);
  });

  test('a generated window refuses like any other: a v1 client meets the brownout inside it', async () => {
    const now = new Date();
    const startTime = `${String(now.getUTCHours()).padStart(2, '0')}:00`;
    const { status, body } = await send(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Now', scope: { kind: 'era', value: 'legacy' }, brownoutSchedule: { firstDate: now.toISOString().slice(0, 10), startTime, timeZone: 'UTC', durations: ['2h', '4h'] } }));
    expect(status).toBe(201);
    expect(body.enforcement.phase).toBe('brownout');
    expect((await errorOf(() => v1HttpAdd(new URL('/mcp', service.sidecarUrl)))).message).toContain('brownout');
  });
});
