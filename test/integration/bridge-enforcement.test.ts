import { randomBytes } from 'node:crypto';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import { afterEach, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { brownoutNow, errorOf, legacyPlan, POLICY_URL, sendPlan, v1HttpAdd, v1SseAdd, v2Add } from '../support/enforcement-peers.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const supported = { supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18'] };

describe('the bridge retires with the plan: a plan in force decides before the bridge answers', () => {
  let modern: Peer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await modern?.close();
    service = undefined;
    modern = undefined;
  });

  test('legacy clients are served by the bridge, with the plan\'s announcement; in a brownout they get its refusal, and nothing reaches the server', async () => {
    modern = await startV2Server('modern');
    service = await startTestService(modern.url, { enforcement: supported, bridge: { enabled: true, key: randomBytes(32).toString('hex') } });
    const url = new URL('/mcp', service.sidecarUrl);
    expect(await v1HttpAdd(url)).toBe('3');
    expect(await v1SseAdd(new URL('/sse', service.sidecarUrl))).toBe('3');

    // Announced: the bridge's answers carry the plan's headers, after its own.
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan());
    const initialize = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(initialize.status).toBe(200);
    expect(initialize.headers.get('mcp-session-id')).toMatch(/^mss1\./);
    expect(initialize.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(initialize.headers.get('link')).toContain(POLICY_URL);
    expect(await v1HttpAdd(url)).toBe('3');

    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Brown out the legacy era', brownouts: brownoutNow() }));
    const seenBefore = modern.seen.length;
    const refused = await errorOf(() => v1HttpAdd(url));
    expect(refused.message).toContain('-32022');
    expect(refused.message).toContain('supported versions: 2026-07-28');
    expect(refused.message).toContain(POLICY_URL);
    const refusedSse = await errorOf(() => v1SseAdd(new URL('/sse', service!.sidecarUrl)));
    // As for any HTTP+SSE opening in a brownout: the stream is refused with 410.
    expect(refusedSse.message).toContain('410');
    // The bridge asked the server nothing for the refused clients.
    expect(modern.seen.length).toBe(seenBefore);
    // Modern clients go on, straight to the server.
    expect(await v2Add(url)).toBe('3');

    const byReason = await trafficTotals(service, 'reason', { era: 'legacy', outcome: 'blocked' });
    expect(Object.keys(byReason)).toEqual(['bridge']);
    const served = await trafficTotals(service, 'era', { outcome: 'served', method: 'tools/call' });
    expect(served).toEqual({ legacy: 3, modern: 1 });
  });

  test('a session revoked through the node\'s API is refused at its next request, counted as session-gone; others go on', async () => {
    modern = await startV2Server('modern');
    service = await startTestService(modern.url, { bridge: { enabled: true, key: randomBytes(32).toString('hex') } });
    const url = new URL('/mcp', service.sidecarUrl);
    const open = async () => {
      const client = new V1Client(CLIENT_INFO);
      const transport = new V1HttpTransport(url);
      await client.connect(transport);
      return { client, token: transport.sessionId! };
    };
    const [doomed, other] = await Promise.all([open(), open()]);
    try {
      expect(textOf(await doomed.client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }))).toBe('2');
      const revoked = await fetch(new URL('/api/v1/bridge/revocations', service.apiUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: doomed.token, reason: 'laptop lost' }),
      });
      expect(revoked.status).toBe(201);
      const refused = await errorOf(() => doomed.client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }));
      expect(refused.message).toContain('revoked');
      expect(textOf(await other.client.callTool({ name: 'add', arguments: { a: 2, b: 2 } }))).toBe('4');
      expect(await trafficTotals(service, 'outcome', { method: 'tools/call' })).toEqual({ served: 2, 'session-gone': 1 });
    } finally {
      await Promise.all([doomed.client.close(), other.client.close()]);
    }
  });
});
