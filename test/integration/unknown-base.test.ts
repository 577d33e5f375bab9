import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_INFO, runV1HttpSession, runV1SseSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startV1SseServer } from '../peers/v1-sse-server.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const ACCEPT = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'];
const modernList = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });

/**
 * The unknown base described: real SDK clients with no credential (anonymous), each claiming a
 * client in its own way, through the sidecar. A legacy session's later requests claim what its
 * initialize claimed; a request with no clientInfo is described by its User-Agent; a caller a
 * trusted mechanism names is not part of the unknown base.
 */
describe('the unknown base, by what its clients claim to be', () => {
  let dual: Peer;
  let sessions: Peer;
  let sse: Peer;
  let service: TestService;
  let sessionService: TestService;
  let sseService: TestService;
  beforeAll(async () => {
    dual = await startV2Server('dual');
    sessions = await startV1SessionServer();
    sse = await startV1SseServer();
    service = await startTestService(new URL(dual.origin));
    sessionService = await startTestService(new URL(sessions.origin));
    sseService = await startTestService(new URL(sse.origin));
  });
  afterAll(async () => {
    for (const running of [service, sessionService, sseService]) await running?.dispose();
    for (const peer of [dual, sessions, sse]) await peer?.close();
  });

  test('a legacy session\'s requests count under its initialize\'s clientInfo; a named caller is left out', async () => {
    const url = new URL('/mcp', sessionService.sidecarUrl);
    await runV1HttpSession(url);
    await runV1HttpSession(url);
    // A named caller (a bearer token): not the unknown base.
    await runV1HttpSession(url, { token: 'named-caller-token' });
    await sessionService.flush();
    const { body } = await sessionService.api('/api/v1/unknown-base');
    // Each session's work: tools/list and two tools/call.
    expect(body.claims).toEqual([{ claim: { kind: 'client-info', name: CLIENT_INFO.name, version: CLIENT_INFO.version }, legacy: 6, modern: 0, legacyShare: 1 }]);
    expect(body.totals).toEqual({ legacy: 6, modern: 0 });
  });

  test('modern requests count under their own clientInfo; requests that carry none (a stateless legacy request after its initialize, a script) under their User-Agent\'s product', async () => {
    const url = new URL('/mcp', service.sidecarUrl);
    await runV2Session(url, 'pin');
    // The dual server serves legacy without sessions: nothing links a call to its initialize, so it is described by its User-Agent.
    await runV1HttpSession(url);
    for (const id of [1, 2]) {
      const answer = await rawRequest(url, 'POST', [...ACCEPT, 'User-Agent', 'python-httpx/0.28.1', 'MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/list'], modernList(id));
      expect(answer.status).toBe(200);
    }
    await service.flush();
    const { status, body } = await service.api('/api/v1/unknown-base');
    expect(status).toBe(200);
    // Each v1 session's work: tools/list and two tools/call; the v2 session's the same, on the modern path.
    expect(body.claims).toEqual([
      { claim: { kind: 'user-agent', name: 'node', version: '' }, legacy: 3, modern: 0, legacyShare: 1 },
      { claim: { kind: 'client-info', name: CLIENT_INFO.name, version: CLIENT_INFO.version }, legacy: 0, modern: 3, legacyShare: 0 },
      { claim: { kind: 'user-agent', name: 'python-httpx', version: '0.28.1' }, legacy: 0, modern: 2, legacyShare: 0 },
    ]);
    expect(body.totals).toEqual({ legacy: 3, modern: 5 });
  });

  test('an HTTP+SSE channel\'s messages claim what its initialize claimed', async () => {
    await runV1SseSession(new URL('/sse', sseService.sidecarUrl));
    await sseService.flush();
    const { body } = await sseService.api('/api/v1/unknown-base');
    expect(body.claims).toEqual([{ claim: { kind: 'client-info', name: CLIENT_INFO.name, version: CLIENT_INFO.version }, legacy: 3, modern: 0, legacyShare: 1 }]);
  });
});
