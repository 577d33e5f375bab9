import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { rawRequest } from '../support/raw-request.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

describe('changes through the API come only as JSON from its own page', () => {
  let upstream: RawUpstream;
  let receiver: WebhookReceiver;
  let service: TestService;
  const post = async (path: string, headers: string[], body?: string) => {
    const response = await rawRequest(new URL(path, service.apiUrl), 'POST', headers, body);
    return { status: response.status, body: JSON.parse(response.body.toString('utf8')) };
  };

  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(500).end());
    receiver = await startWebhookReceiver();
    service = await startTestService(new URL(upstream.origin), {
      alerts: { schedule: '0 0 1 1 *', webhooks: [{ name: 'ops', url: receiver.url, format: 'json' }], maxAttempts: 1, initialBackoffMs: 10 },
      allowedHosts: ['dash.example.com'],
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await receiver?.close();
    await upstream?.close();
  });

  test('a cross-site text/plain POST to /api/v1/alerts/evaluate is refused and runs nothing', async () => {
    const refused = await post('/api/v1/alerts/evaluate', ['Origin', 'https://evil.example', 'Content-Type', 'text/plain'], '{}');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden_origin', parameter: 'Origin' });
    expect(refused.body.error.message).toContain('https://evil.example');
    // Even sent as JSON: the foreign Origin alone refuses it.
    expect((await post('/api/v1/alerts/evaluate', ['Origin', 'https://evil.example', 'Content-Type', 'application/json'], '{}')).status).toBe(403);
    expect((await post('/api/v1/alerts/evaluate', ['Origin', 'null', 'Content-Type', 'application/json'], '{}')).status).toBe(403);
    expect((await post('/api/v1/alerts/evaluate', ['Origin', `http://localhost:${service.apiUrl.port}`, 'Content-Type', 'application/json'], '{}')).status).toBe(403);
    expect((await service.api('/api/v1/alerts')).body.alerts).toEqual([]);
  });

  test('a change not sent as JSON is refused with 415, with or without a body', async () => {
    for (const [type, body] of [['text/plain', '{}'], ['application/x-www-form-urlencoded', 'a=1'], ['multipart/form-data; boundary=x', '--x--'], [undefined, undefined]] as const) {
      const refused = await post('/api/v1/alerts/evaluate', type === undefined ? [] : ['Content-Type', type], body);
      expect([type, refused.status]).toEqual([type, 415]);
      expect(refused.body.error).toMatchObject({ code: 'unsupported_media_type', parameter: 'content-type' });
    }
    const del = await rawRequest(new URL('/api/v1/plans/1', service.apiUrl), 'DELETE', []);
    expect(del.status).toBe(415);
  });

  test('the same origin, an allowed name, or no Origin at all (a script, not a browser) may change data', async () => {
    const own = `http://${service.apiUrl.host}`;
    expect((await post('/api/v1/alerts/evaluate', ['Origin', own, 'Content-Type', 'application/json; charset=utf-8'], '{}')).status).toBe(200);
    expect((await post('/api/v1/alerts/evaluate', ['Content-Type', 'application/json'])).status).toBe(200);
    expect((await post('/api/v1/alerts/evaluate', ['Host', 'dash.example.com', 'Origin', 'https://dash.example.com', 'Content-Type', 'application/json'], '{}')).status).toBe(200);
  });
});
