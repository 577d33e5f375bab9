import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { CLIENT_INFO, runV1HttpSession } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

describe('SDK v1 client and server on Streamable HTTP with sessions, through the sidecar', () => {
  let peer: Peer;
  let service: TestService;
  beforeAll(async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin));
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('a full legacy session, DELETE included, is counted exactly once per message', async () => {
    const summary = await runV1HttpSession(new URL('/mcp', service.sidecarUrl), { terminate: true });
    expect(summary.sum).toBe('3');
    expect(await trafficTotals(service, 'method')).toEqual({
      initialize: 1,
      'notifications/initialized': 1,
      GET: 1,
      'tools/list': 1,
      'tools/call': 2,
      DELETE: 1,
    });
    expect(await trafficTotals(service, 'era')).toEqual({ legacy: 7 });
    expect(await trafficTotals(service, 'transport')).toEqual({ 'streamable-http': 7 });
    // The negotiated version comes from the initialize result and then from the session table.
    expect(await trafficTotals(service, 'version')).toEqual({ '2025-11-25': 7 });
    expect(await trafficTotals(service, 'reason')).toEqual({ initialize: 2, 'get-stream': 1, 'session-header': 3, 'delete-session': 1 });
    expect(await trafficTotals(service, 'outcome')).toEqual({ served: 6, accepted: 1 });
  });

  test('the caller is the bearer token\'s fingerprint; clientInfo is kept beside it as a hint; the token is never stored', async () => {
    const token = 'very-secret-token-6f1c2d';
    await runV1HttpSession(new URL('/mcp', service.sidecarUrl), { token });
    const integrations = Object.keys(await trafficTotals(service, 'integration'));
    const fingerprint = integrations.find((key) => key.startsWith('tok_'));
    expect(fingerprint).toMatch(/^tok_[0-9a-f]{16}$/);
    const row = service.database().sqlite.prepare('select * from integrations where key = ?').get(fingerprint) as Record<string, unknown>;
    expect(row).toMatchObject({ source: 'bearer-fingerprint', client_info_name: CLIENT_INFO.name, client_info_version: CLIENT_INFO.version });
    expect(row.last_legacy_seen).toBeTypeOf('number');
    service.database().sqlite.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(service.dbPath).includes(token)).toBe(false);
  });

  test('the session ends with the DELETE: a later request on it is counted as session-gone', async () => {
    const before = await trafficTotals(service, 'outcome');
    const sessionId = await openSession(service.sidecarUrl);
    const gone = await fetch(new URL('/mcp', service.sidecarUrl), { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    expect(gone.status).toBe(200);
    const after = await fetch(new URL('/mcp', service.sidecarUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    const outcomes = await trafficTotals(service, 'outcome');
    expect((outcomes['session-gone'] ?? 0) - (before['session-gone'] ?? 0)).toBe(1);
  });
});

async function openSession(origin: URL): Promise<string> {
  const response = await fetch(new URL('/mcp', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });
  await response.text();
  const id = response.headers.get('mcp-session-id');
  if (id === null) throw new Error('no session id');
  return id;
}
