import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rawRequest } from '../support/raw-request.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const REBIND = 'rebind.evil.example';

async function call(service: TestService, method: string, path: string, host: string, body?: unknown) {
  const headers = ['Host', host, ...(body === undefined ? [] : ['Content-Type', 'application/json'])];
  const response = await rawRequest(new URL(path, service.apiUrl), method, headers, body === undefined ? undefined : JSON.stringify(body));
  const text = response.body.toString('utf8');
  return { status: response.status, text, json: () => JSON.parse(text) };
}

describe('the API answers only to its own Host', () => {
  let upstream: RawUpstream;
  let service: TestService;
  let own: string;
  let key: string;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    service = await startTestService(new URL(upstream.origin), { allowedHosts: ['dash.example.com', 'other.example.com:8443'] });
    own = service.apiUrl.host;
    const sent = await fetch(new URL('/mcp', service.sidecarUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer caller-token-1' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
    });
    await sent.text();
    key = (await service.api('/api/v1/integrations')).body.integrations[0].key;
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('a PATCH sent under a rebinding Host is refused with 421 naming the Host, and changes nothing', async () => {
    const refused = await call(service, 'PATCH', `/api/v1/integrations/${key}`, `${REBIND}:${service.apiUrl.port}`, { displayName: 'rebound' });
    expect(refused.status).toBe(421);
    expect(refused.json().error).toMatchObject({ code: 'misdirected', parameter: 'Host' });
    expect(refused.json().error.message).toContain(REBIND);
    const listed = (await service.api('/api/v1/integrations')).body.integrations.find((i: { key: string }) => i.key === key);
    expect(listed.displayName).not.toBe('rebound');

    const accepted = await call(service, 'PATCH', `/api/v1/integrations/${key}`, own, { displayName: 'named here' });
    expect(accepted.status).toBe(200);
  });

  test('a GET of the API or the page under a rebinding Host is refused', async () => {
    for (const path of ['/api/v1/traffic?bucket=hour&groupBy=era', '/api/v1/integrations', '/']) {
      const refused = await call(service, 'GET', path, REBIND);
      expect([path, refused.status]).toEqual([path, 421]);
      expect(refused.text).not.toContain(key);
    }
  });

  test('loopback names and the listening address pass only on the port the API listens on', async () => {
    const port = service.apiUrl.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect([host, (await call(service, 'GET', '/api/v1/plans', host)).status]).toEqual([host, 200]);
    }
    const otherPort = String(Number(port) === 65_535 ? 1 : Number(port) + 1);
    for (const host of [`127.0.0.1:${otherPort}`, 'localhost', `127.0.0.2:${port}`, `localhost.evil.example:${port}`, '']) {
      expect([host, (await call(service, 'GET', '/api/v1/plans', host)).status]).toEqual([host, 421]);
    }
  });

  test('names in allowedHosts pass, on any port or only on the one listed', async () => {
    for (const host of ['dash.example.com', 'dash.example.com:443', 'Dash.Example.com:8080', 'other.example.com:8443']) {
      expect([host, (await call(service, 'GET', '/api/v1/plans', host)).status]).toEqual([host, 200]);
    }
    for (const host of ['other.example.com', 'other.example.com:443', 'evil.dash.example.com']) {
      expect([host, (await call(service, 'GET', '/api/v1/plans', host)).status]).toEqual([host, 421]);
    }
  });

  test('/healthz and /metrics answer under any Host, for probes and scrapers', async () => {
    expect((await call(service, 'GET', '/healthz', REBIND)).status).toBe(200);
    expect((await call(service, 'GET', '/metrics', REBIND)).status).toBe(200);
  });
});
