import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const CAP = 1024;

describe('bad input is forwarded unchanged and counted as unknown with a reason, or apart when it cannot be MCP', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((req, res) => {
      const status = req.method === 'POST' ? 400 : 404;
      res.writeHead(status, { 'content-type': 'text/plain' }).end('no');
    });
    service = await startTestService(new URL(upstream.origin), { maxBodyBytes: CAP });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  async function send(method: string, path: string, headers: string[], body?: Buffer | string) {
    const before = upstream.received.length;
    const response = await rawRequest(new URL(path, service.sidecarUrl), method, headers, body);
    const seen = upstream.received[before]!;
    return { response, seen };
  }

  test('malformed JSON', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"';
    const { response, seen } = await send('POST', '/mcp', ['Content-Type', 'application/json'], body);
    expect(response.status).toBe(400);
    expect(seen.body.toString()).toBe(body);
    expect(await trafficTotals(service, 'era', { reason: 'invalid-json' })).toEqual({ unknown: 1 });
  });

  test('a body that is JSON but not JSON-RPC', async () => {
    const { seen } = await send('POST', '/mcp', ['Content-Type', 'application/json'], '[]');
    expect(seen.body.toString()).toBe('[]');
    await send('POST', '/mcp', ['Content-Type', 'application/json'], '42');
    expect(await trafficTotals(service, 'era', { reason: 'invalid-message' })).toEqual({ unknown: 2 });
  });

  test('a wrong content-type', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const { seen } = await send('POST', '/mcp', ['Content-Type', 'text/plain'], body);
    expect(seen.body.toString()).toBe(body);
    expect(await trafficTotals(service, 'era', { reason: 'unsupported-content-type' })).toEqual({ unknown: 1 });
  });

  test('a body past the classification cap is forwarded byte for byte, classified from its headers', async () => {
    const huge = randomBytes(200 * CAP);
    const { seen } = await send('POST', '/mcp', ['Content-Type', 'application/json'], huge);
    expect(seen.body.equals(huge)).toBe(true);
    expect(await trafficTotals(service, 'era', { reason: 'body-too-large' })).toEqual({ unknown: 1 });
    const withSession = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(4 * CAP) } } });
    const second = await send('POST', '/mcp', ['Content-Type', 'application/json', 'Mcp-Session-Id', 's-1', 'MCP-Protocol-Version', '2025-11-25'], withSession);
    expect(second.seen.body.toString()).toBe(withSession);
    expect(await trafficTotals(service, 'era', { reason: 'body-too-large' })).toEqual({ unknown: 1, legacy: 1 });
  });

  test('requests that cannot be MCP are passed on and counted apart, never as MCP traffic', async () => {
    const before = await trafficTotals(service, 'method');
    const favicon = await send('GET', '/favicon.ico', ['Accept', 'image/*']);
    expect(favicon.response.status).toBe(404);
    expect(favicon.seen.url).toBe('/favicon.ico');
    const put = await send('PUT', '/anything?x=1', ['Content-Type', 'application/json'], '{}');
    expect(put.seen.body.toString()).toBe('{}');
    const discovery = await send('GET', '/.well-known/oauth-protected-resource/mcp', ['Accept', 'application/json', 'MCP-Protocol-Version', '2025-06-18']);
    expect(discovery.seen.url).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(await trafficTotals(service, 'method')).toEqual(before);
    expect(service.health()).toMatchObject({ metering: { nonMcpRequests: 3 } });
    const metrics = await (await fetch(new URL('/metrics', service.apiUrl))).text();
    expect(metrics).toMatch(/^mcp_sunset_non_mcp_requests_total 3$/m);
  });

  test('invalid UTF-8 and control bytes do not break anything', async () => {
    const junk = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0xc3]);
    const { seen } = await send('POST', '/mcp', ['Content-Type', 'application/json'], junk);
    expect(seen.body.equals(junk)).toBe(true);
    expect(await trafficTotals(service, 'era', { reason: 'invalid-json' })).toEqual({ unknown: 2 });
  });

  test('after all of it the sidecar is healthy and still counting', async () => {
    const { body } = await service.api('/healthz');
    expect(body.status).toBe('ok');
    expect(body.metering.meteringErrors).toBe(0);
    expect(body.metering.droppedEvents).toBe(0);
  });
});
