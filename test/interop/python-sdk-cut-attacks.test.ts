import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, inject, test } from 'vitest';
import { CLIENT_INFO, runV1HttpSession } from '../peers/clients.js';
import { startPythonServer, type PythonServer, type PythonServerOptions } from '../peers/python-sdk-server.js';
import { dayFromNow as day, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * The ways the issue names of getting legacy work past a cut, against the official Python SDK server
 * (mcp 2.3.0). Each is judged as the Python server reads it (it routes eras on the
 * MCP-Protocol-Version header alone, percent-decodes the path, parses NaN/Infinity and keeps the
 * last of duplicate keys, and reads a bearer token as everything after `Bearer `); past a cut each
 * legacy one is refused with -32022 and the server's own log shows it never arrived.
 */
const supported = { supportedVersions: ['2026-07-28', '2025-11-25'] };
const ACCEPT = 'application/json, text/event-stream';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const INITIALIZE_PARAMS = `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":${JSON.stringify(CLIENT_INFO)}}`;
const initialize = (params = INITIALIZE_PARAMS) => `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${params}}`;
const modernAdd = (b = '2') => `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":${b}},"_meta":${JSON.stringify(ENVELOPE)}}}`;
const MODERN_ADD_HEADERS = ['MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/call', 'Mcp-Name', 'add'];

type Answer = { status: number; text: string };

describe('past a cut, nothing the Python SDK server would serve on its legacy leg walks by', () => {
  const python = inject('interopPython');
  let server: PythonServer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await server?.close();
    service = undefined;
    server = undefined;
  });

  async function start(options: PythonServerOptions = {}, upstreamPath = '/'): Promise<void> {
    server = await startPythonServer(python, options);
    service = await startTestService(new URL(upstreamPath, server.origin), { enforcement: supported });
  }

  async function post(path: string, headers: string[], body: string | Buffer): Promise<Answer> {
    const answer = await rawRequest(new URL(path, service!.sidecarUrl), 'POST', ['Accept', ACCEPT, 'Content-Type', 'application/json', ...headers], body);
    return { status: answer.status, text: answer.body.toString() };
  }

  async function cut(): Promise<void> {
    await sendPlan(service!, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
  }

  /** Refused by the sidecar with -32022, and not a line in the server's log: it never arrived. */
  async function expectRefused(send: () => Promise<Answer>): Promise<void> {
    const before = server!.log().length;
    const answer = await send();
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32022 } });
    expect(server!.log().slice(before)).toEqual([]);
  }

  /** The last message the server served. */
  const lastServed = () => server!.served().at(-1);

  test('a modern request whose Connection header lists mcp-protocol-version and mcp-method: forwarded without them, the stateless server serves it on its legacy leg', async () => {
    await start({ stateless: true });
    const send = () => post('/mcp', [...MODERN_ADD_HEADERS, 'Connection', 'mcp-protocol-version, mcp-method'], modernAdd());
    // Without a plan: the headers never reach the server, which serves the call as legacy; the sidecar counts what it served.
    const served = await send();
    expect(served.status).toBe(200);
    expect(server!.http().at(-1)).toMatchObject({ protocolVersionHeader: null, mcpMethodHeader: null });
    expect(lastServed()).toMatchObject({ method: 'tools/call', era: 'legacy' });
    // Counted by its body's envelope (reason modern-meta), as the captured SDK traffic in
    // fixtures/wire-traces labels an envelope wherever it is served; the headers' absence is recorded
    // as a mismatch, and the policy judges it legacy (below).
    expect(await trafficTotals(service!, 'era', { method: 'tools/call' })).toEqual({ modern: 1 });
    await cut();
    await expectRefused(send);
    await expectRefused(() => post('/mcp', [...MODERN_ADD_HEADERS, 'Connection', 'keep-alive, MCP-Protocol-Version'], modernAdd()));
  });

  test('the same against the sessionful default: an initialize dressed in modern headers the Connection header removes', async () => {
    await start();
    const send = () => post('/mcp', ['MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'initialize', 'Connection', 'mcp-protocol-version, mcp-method'], initialize());
    expect((await send()).status).toBe(200);
    expect(lastServed()).toMatchObject({ method: 'initialize', era: 'legacy' });
    await cut();
    await expectRefused(send);
  });

  test('percent-encoded forms of the upstream path /mcp, which Starlette decodes before it routes, are judged as /mcp', async () => {
    await start({}, '/mcp');
    const targets = ['/%6Dcp', '/%6d%63%70', '/m%63p'];
    for (const target of targets) expect((await post(target, [], initialize())).status).toBe(200);
    // The server routed each to /mcp and served it on its legacy leg; the sidecar counted each there.
    expect(server!.http().map((entry) => entry.path)).toEqual(targets.map(() => '/mcp'));
    expect.soft(await trafficTotals(service!, 'method')).toEqual({ initialize: targets.length });
    await cut();
    for (const target of targets) await expectRefused(() => post(target, [], initialize()));
  });

  test('a gzip-compressed legacy initialize with Content-Encoding: gzip and modern headers is never served', async () => {
    await start();
    const gzipped = gzipSync(Buffer.from(initialize()));
    const headers = ['Content-Encoding', 'gzip', 'MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'initialize'];
    // The server does not inflate request bodies: whatever reaches it is a parse error on its modern leg, never served.
    const before = await post('/mcp', headers, gzipped);
    expect(before.status).toBe(400);
    expect(server!.served()).toEqual([]);
    expect.soft(await trafficTotals(service!, 'outcome', { outcome: 'served' })).toEqual({});
    await cut();
    for (const sent of [headers, ['Content-Encoding', 'gzip']]) {
      const answer = await post('/mcp', sent, gzipped);
      expect(answer.status).toBe(400);
      expect(server!.served()).toEqual([]);
    }
  });

  test('a legacy initialize with NaN or Infinity, which Python parses and JSON.parse does not, is counted as legacy and refused past a cut', async () => {
    await start();
    const bodies = [
      initialize(`{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x":{"y":NaN}}},"clientInfo":${JSON.stringify(CLIENT_INFO)}}`),
      initialize(`{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x":{"y":-Infinity}}},"clientInfo":${JSON.stringify(CLIENT_INFO)}}`),
    ];
    for (const body of bodies) expect((await post('/mcp', [], body)).status).toBe(200);
    expect(server!.served().map((entry) => [entry.method, entry.era])).toEqual([
      ['initialize', 'legacy'],
      ['initialize', 'legacy'],
    ]);
    expect.soft(await trafficTotals(service!, 'era', { outcome: 'served' })).toEqual({ legacy: 2 });
    await cut();
    for (const body of bodies) await expectRefused(() => post('/mcp', [], body));
  });

  test('a legacy call with Infinity on the stateless server is refused past a cut; a modern call with NaN is served as the modern call it is', async () => {
    await start({ stateless: true });
    const legacyCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":Infinity}}}`;
    expect((await post('/mcp', [], legacyCall)).status).toBe(200);
    expect(lastServed()).toMatchObject({ method: 'tools/call', era: 'legacy' });
    await cut();
    await expectRefused(() => post('/mcp', [], legacyCall));
    const modern = await post('/mcp', MODERN_ADD_HEADERS, modernAdd('NaN'));
    expect(modern.status, modern.text).toBe(200);
    expect(lastServed()).toMatchObject({ method: 'tools/call', era: 'modern' });
    expect(await trafficTotals(service!, 'era', { method: 'tools/call', outcome: 'served' })).toEqual({ legacy: 1, modern: 1 });
  });

  test('a body with duplicate keys is judged by the last, as Python reads it', async () => {
    await start();
    // The first method and params say a modern tools/list; the last, which both Python parsers keep, an initialize.
    const duplicated = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${JSON.stringify(ENVELOPE)}},"method":"initialize","params":${INITIALIZE_PARAMS}}`;
    expect((await post('/mcp', [], duplicated)).status).toBe(200);
    expect(lastServed()).toMatchObject({ method: 'initialize', era: 'legacy' });
    expect.soft(await trafficTotals(service!, 'method')).toEqual({ initialize: 1 });
    await cut();
    await expectRefused(() => post('/mcp', [], duplicated));
    const envelopeFirst = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${JSON.stringify(ENVELOPE)}},"params":{}}`;
    await expectRefused(() => post('/mcp', [], envelopeFirst));
  });

  test('Authorization: Bearer <token> <word> is not the exempt caller behind <token>: the server reads the whole rest as its token', async () => {
    const token = 'python-peer-token-0123456789';
    await start({ tokens: [token] });
    const url = new URL('/mcp', service!.sidecarUrl);
    expect((await runV1HttpSession(url, { token })).sum).toBe('3');
    expect(server!.served().at(-1)).toMatchObject({ authorization: `Bearer ${token}` });
    const callers = Object.keys(await trafficTotals(service!, 'integration'));
    expect(callers).toHaveLength(1);
    await sendPlan(service!, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1), exemptions: [{ integration: callers[0], until: day(30), note: 'migrating' }] }));
    // The exempt caller is still served.
    expect((await runV1HttpSession(url, { token })).sum).toBe('3');
    // The same token with a word after it is another credential to the server, not the exempt one.
    const before = server!.log().length;
    const answer = await post('/mcp', ['Authorization', `Bearer ${token} extra`], initialize());
    expect([400, 401]).toContain(answer.status);
    if (answer.status === 400) expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32022 } });
    expect(server!.log().slice(before)).toEqual([]);
  });
});
