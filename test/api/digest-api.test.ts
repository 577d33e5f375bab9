import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const PM = 'pm-token-0123456789';

describe('the digest through the API, behind named admin tokens', () => {
  let upstream: RawUpstream;
  let receiver: WebhookReceiver;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    receiver = await startWebhookReceiver([500, 500]);
    service = await startTestService(new URL(upstream.origin), {
      adminTokens: [{ name: 'pm', token: PM }],
      alerts: { schedule: '0 0 1 1 *', webhooks: [{ name: 'failing', url: receiver.url, format: 'json' }], maxAttempts: 2, initialBackoffMs: 10, digest: { dashboardUrl: 'https://sunset.example/ops' } },
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await receiver?.close();
    await upstream?.close();
  });

  const call = async (token: string | null, method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, service.apiUrl), {
      method,
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  test('needs a token, like the rest of the API', async () => {
    expect((await call(null, 'GET', '/api/v1/digest')).status).toBe(401);
    expect((await call(null, 'POST', '/api/v1/digest/send', {})).status).toBe(401);
    expect(receiver.received).toEqual([]);
  });

  test('an empty store still has a digest: nothing measured, no plans, links to the configured dashboard, the schedule and its next run', async () => {
    const { status, body } = await call(PM, 'GET', '/api/v1/digest');
    expect(status).toBe(200);
    expect(body.share).toMatchObject({ current: null, previous: null, change: null, legacyRequests: 0, servedRequests: 0 });
    expect(body.plans).toEqual([]);
    expect(body.callers).toEqual({ moved: [], startedMigrating: [], wentQuiet: [], remaining: [], remainingCount: 0, legacy: { identifiable: 0, unknown: 0, total: 0, people: { thisWeek: 0, lastWeek: 0 } } });
    expect(body.links).toEqual({ dashboard: 'https://sunset.example/ops/', print: 'https://sunset.example/ops/digest.html' });
    expect(body.schedule).toMatchObject({ expression: '0 9 * * 1', timeZone: 'UTC' });
    const next = new Date(body.schedule.nextRun);
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 9, 0]);
    expect(next.getTime() - Date.now()).toBeGreaterThan(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
  });

  test('a send whose webhook refuses is recorded failed, with the token that asked and each attempt', async () => {
    const { status, body } = await call(PM, 'POST', '/api/v1/digest/send', {});
    expect(status).toBe(200);
    expect(body.digest).toMatchObject({ kind: 'on-demand', requestedBy: 'token:pm', status: 'failed', deliveries: [{ webhook: 'failing', format: 'json', status: 'failed', attempts: 2, lastError: 'HTTP 500' }] });
    expect(receiver.received).toHaveLength(2);
    const read = await call(PM, 'GET', `/api/v1/digests/${body.digest.id}`);
    expect(read.body).toMatchObject({ id: body.digest.id, status: 'failed', content: { links: { dashboard: 'https://sunset.example/ops/' } } });
    expect((await call(PM, 'GET', '/api/v1/digests/999')).status).toBe(404);
  });

  test.each([
    ['GET', '/api/v1/digest?at=2026-01-01', undefined, 'at'],
    ['POST', '/api/v1/digest/send', { to: 'someone' }, 'to'],
    ['GET', '/api/v1/digests?limit=0', undefined, 'limit'],
    ['GET', '/api/v1/digests?limit=101', undefined, 'limit'],
    ['GET', '/api/v1/digests?before=x', undefined, 'before'],
    ['GET', '/api/v1/digests/x', undefined, 'id'],
  ])('%s %s is refused with 400 naming the field', async (method, path, body, parameter) => {
    const before = receiver.received.length;
    const answer = await call(PM, method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.parameter).toBe(parameter);
    expect(receiver.received.length).toBe(before);
  });
});
