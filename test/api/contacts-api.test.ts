import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';
import { writeBatch } from '../support/write-batch.js';
import { trafficCell } from '../store/temp-database.js';

describe('contacts made by hand, through the API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), { alerts: { scheduled: false } });
    const now = Date.now();
    await writeBatch(service.store!, { cells: [trafficCell({ minute: now, integration: 'tok_a', count: 3 })], integrations: [{ key: 'tok_a', source: 'bearer-fingerprint', firstSeen: now, lastSeen: now, lastLegacySeen: now, clientInfo: undefined }] });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  const post = async (key: string, body: unknown) => {
    const response = await fetch(new URL(`/api/v1/integrations/${key}/contacts`, service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };

  test('a contact is recorded with who recorded it, and listed beside the notices', async () => {
    const { status, body } = await post('tok_a', { kind: 'ticket', note: ' OPS-4411: moving in March ' });
    expect(status).toBe(201);
    expect(body).toMatchObject({ integration: 'tok_a', kind: 'ticket', note: 'OPS-4411: moving in March', planId: null, by: 'api (no admin token)' });
    expect((await service.api('/api/v1/integrations/tok_a/notices')).body).toEqual({ notices: [], contacts: [body] });
  });

  test.each([
    ['tok_a', { kind: 'fax', note: 'x' }, 400, 'kind'],
    ['tok_a', { kind: 'call', note: '  ' }, 400, 'note'],
    ['tok_a', { kind: 'call', note: 'x', extra: 1 }, 400, 'extra'],
    ['tok_a', { kind: 'call', note: 'x', planId: 999 }, 404, 'planId'],
    ['tok_nobody', { kind: 'call', note: 'x' }, 404, 'key'],
  ])('%s %j is refused with %i naming %s, and records nothing', async (key, body, status, parameter) => {
    const before = (await service.store!.listCallerContacts()).length;
    const answer = await post(key, body);
    expect(answer.status).toBe(status);
    expect(answer.body.error.parameter).toBe(parameter);
    expect((await service.store!.listCallerContacts()).length).toBe(before);
  });
});
