import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { endToEnd, rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const MODERN_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
});

describe('the sidecar passes traffic through unchanged', () => {
  let upstream: RawUpstream | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await upstream?.close();
    service = upstream = undefined;
  });

  test('request bytes and headers reach the upstream as sent, Host and Origin included', async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":7,"result":{"tools":[],"resultType":"complete"}}'));
    service = await startTestService(new URL(upstream.origin));
    const headers = [
      'Host', 'mcp.example.test:443',
      'Origin', 'https://app.example.test',
      'Content-Type', 'application/json',
      'MCP-Protocol-Version', '2026-07-28',
      'Mcp-Method', 'tools/list',
      'X-Custom', 'one',
      'x-custom', 'two',
      'Content-Length', String(Buffer.byteLength(MODERN_BODY)),
    ];
    const response = await rawRequest(new URL('/mcp?x=1', service.sidecarUrl), 'POST', headers, MODERN_BODY);
    expect(response.status).toBe(200);
    const seen = upstream.received[0]!;
    expect(seen.url).toBe('/mcp?x=1');
    expect(seen.body.toString()).toBe(MODERN_BODY);
    expect(endToEnd(seen.rawHeaders)).toEqual(endToEnd(headers));
    expect(await trafficTotals(service, 'era')).toEqual({ modern: 1 });
  });

  test('Host and Content-Length reach the upstream in the case and place the client gave them', async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":7,"result":{"tools":[],"resultType":"complete"}}'));
    service = await startTestService(new URL(upstream.origin));
    // Neither where an HTTP client library would put them: Host last, Content-Length in the middle.
    const headers = [
      'content-type', 'application/json',
      'CONTENT-LENGTH', String(Buffer.byteLength(MODERN_BODY)),
      'mcp-protocol-version', '2026-07-28',
      'Origin', 'https://app.example.test',
      'HOST', 'mcp.example.test',
    ];
    const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', headers, MODERN_BODY);
    expect(response.status).toBe(200);
    const seen = upstream.received[0]!;
    expect(seen.body.toString()).toBe(MODERN_BODY);
    expect(endToEnd(seen.rawHeaders)).toEqual(endToEnd(headers));
  });

  test('a request that expects 100-continue reaches the upstream with its Expect header and gets its answer', async () => {
    const answer = '{"jsonrpc":"2.0","id":7,"result":{"tools":[],"resultType":"complete"}}';
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    service = await startTestService(new URL(upstream.origin));
    const headers = ['Content-Type', 'application/json', 'Expect', '100-continue'];
    const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', headers, MODERN_BODY);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe(answer);
    const seen = upstream.received[0]!;
    expect(seen.body.toString()).toBe(MODERN_BODY);
    expect(endToEnd(seen.rawHeaders)).toContainEqual(['Expect', '100-continue']);
    expect(await trafficTotals(service, 'era')).toEqual({ modern: 1 });
  });

  test.each(['GET', 'DELETE', 'OPTIONS'])('a chunked %s body reaches the upstream framed, never as a request of its own', async (method) => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    service = await startTestService(new URL(upstream.origin));
    const smuggled = 'POST /smuggled HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}';
    const chunk = `${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`;
    const socket = connect(Number(service.sidecarUrl.port), service.sidecarUrl.hostname);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (data) => {
        text += data.toString();
        if (/\r\n\r\n(2\r\n)?ok/.test(text)) resolve(text);
      });
      socket.on('error', reject);
      socket.write(`${method} /mcp HTTP/1.1\r\nHost: ${service!.sidecarUrl.host}\r\nAccept: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`);
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    // Wait for anything a second, smuggled request would bring, then look at all the upstream saw.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(upstream.received.map((seen) => `${seen.method} ${seen.url}`)).toEqual([`${method} /mcp`]);
    expect(upstream.received[0]!.body.toString()).toBe(smuggled);
  });

  test('answer status, headers and bytes reach the client as the upstream sent them', async () => {
    const body = Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"tools":[],"resultType":"complete"}}');
    upstream = await startRawUpstream((_req, res) => {
      res.writeHead(200, 'Fine Thanks', [
        'Content-Type', 'application/json',
        'Set-Cookie', 'a=1',
        'Set-Cookie', 'b=2',
        'X-Upstream', 'yes',
        'Date', 'Mon, 30 Nov 2026 00:00:00 GMT',
        'Content-Length', String(body.length),
      ]);
      res.end(body);
    });
    service = await startTestService(new URL(upstream.origin));
    const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ['Content-Type', 'application/json'], MODERN_BODY);
    expect(response.body.equals(body)).toBe(true);
    expect(endToEnd(response.rawHeaders)).toEqual([
      ['Content-Type', 'application/json'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['X-Upstream', 'yes'],
      ['Content-Length', String(body.length)],
    ]);
    const dates = response.rawHeaders.filter((_v, i) => i % 2 === 0 && response.rawHeaders[i]!.toLowerCase() === 'date');
    expect(dates).toHaveLength(1);
  });

  test('a compressed answer is forwarded compressed and still read for its outcome', async () => {
    const json = '{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}';
    const gz = gzipSync(json);
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gz));
    service = await startTestService(new URL(upstream.origin));
    const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ['Content-Type', 'application/json', 'Accept-Encoding', 'gzip'], MODERN_BODY);
    expect(response.body.equals(gz)).toBe(true);
    // No resultType in the result: a modern request answered on the legacy path.
    expect(await trafficTotals(service, 'outcome')).toEqual({ 'served-as-legacy': 1 });
  });

  test('a client that goes away mid-stream is propagated upstream and counted as cancelled', async () => {
    upstream = await startRawUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n');
    });
    service = await startTestService(new URL(upstream.origin));
    const controller = new AbortController();
    const response = await fetch(new URL('/mcp', service.sidecarUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: MODERN_BODY,
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('notifications/progress');
    controller.abort();
    await expect.poll(() => upstream!.received[0]!.closedEarly, { timeout: 5000 }).toBe(true);
    await expect.poll(() => trafficTotals(service!, 'outcome'), { timeout: 5000 }).toEqual({ cancelled: 1 });
  });

  test('an unreachable upstream gives 502 with a JSON-RPC error naming it, counted as upstream-unreachable', async () => {
    // Port 1 is privileged and unused on loopback, so the connection is refused.
    const origin = 'http://127.0.0.1:1';
    service = await startTestService(new URL(origin));
    const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ['Content-Type', 'application/json'], MODERN_BODY);
    expect(response.status).toBe(502);
    const body = JSON.parse(response.body.toString());
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32603 } });
    expect(body.error.message).toContain(origin);
    expect(await trafficTotals(service, 'outcome')).toEqual({ 'upstream-unreachable': 1 });
    expect(await trafficTotals(service, 'era')).toEqual({ modern: 1 });
  });
});
