import { afterEach, describe, expect, test } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { CLIENT_INFO, runV1SseSession } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SseServer } from '../peers/v1-sse-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

describe('SDK v1 on the deprecated HTTP+SSE transport, through the sidecar', () => {
  let peer: Peer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('the stream open and every POSTed message are counted, outcomes taken from the stream', async () => {
    peer = await startV1SseServer();
    service = await startTestService(new URL(peer.origin));
    const summary = await runV1SseSession(new URL('/sse', service.sidecarUrl));
    expect(summary.echo).toContain('hi');
    expect(await trafficTotals(service, 'method')).toEqual({
      GET: 1,
      initialize: 1,
      'notifications/initialized': 1,
      'tools/list': 1,
      'tools/call': 2,
    });
    expect(await trafficTotals(service, 'transport')).toEqual({ 'http+sse': 6 });
    expect(await trafficTotals(service, 'era')).toEqual({ legacy: 6 });
    expect(await trafficTotals(service, 'reason')).toEqual({ 'sse-open': 1, initialize: 2, 'sse-message': 3 });
    // The answers arrive as `message` events on the GET stream, not in the 202s.
    expect(await trafficTotals(service, 'outcome')).toEqual({ served: 5, accepted: 1 });
    // The GET carries no version; the rest use the version negotiated on that stream.
    expect(await trafficTotals(service, 'version')).toEqual({ '(none)': 1, '2025-11-25': 5 });
  });

  test('the endpoint event is rewritten when the public prefix differs from the upstream\'s', async () => {
    peer = await startV1SseServer({ basePath: '/base' });
    service = await startTestService(new URL('/base', peer.origin), { publicPrefix: '' });
    const response = await fetch(new URL('/sse', service.sidecarUrl), { headers: { accept: 'text/event-stream' } });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(first).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=[\w-]+\n\n/);

    const summary = await runV1SseSession(new URL('/sse', service.sidecarUrl));
    expect(summary.sum).toBe('3');
    expect(peer.seen.filter((r) => r.method === 'POST').every((r) => r.path.startsWith('/base/messages?sessionId='))).toBe(true);
    expect(await trafficTotals(service, 'transport')).toEqual({ 'http+sse': 7 });
    expect((await trafficTotals(service, 'outcome')).served).toBe(6);
  });

  test('OAuth discovery and paths outside the prefix pass through uncounted; the learned message endpoint is still counted', async () => {
    peer = await startV1SseServer({ basePath: '/base' });
    // The upstream URL names the stream; the message endpoint its `endpoint` event names lies outside that prefix.
    service = await startTestService(new URL('/base/sse', peer.origin));
    for (const path of ['/.well-known/oauth-protected-resource/base/sse', '/.well-known/oauth-authorization-server', '/elsewhere']) {
      const response = await fetch(new URL(path, service.sidecarUrl), { headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' } });
      expect(response.status).toBe(404);
      await response.text();
    }
    expect(peer.seen.map((r) => r.path)).toEqual(['/.well-known/oauth-protected-resource/base/sse', '/.well-known/oauth-authorization-server', '/elsewhere']);
    const summary = await runV1SseSession(new URL('/base/sse', service.sidecarUrl));
    expect(summary.sum).toBe('3');
    expect(await trafficTotals(service, 'transport')).toEqual({ 'http+sse': 6 });
    expect(await trafficTotals(service, 'era')).toEqual({ legacy: 6 });
    expect(service.health()).toMatchObject({ metering: { nonMcpRequests: 3 } });
  });

  test('a call the client aborts (the SDK POSTs notifications/cancelled) is counted as cancelled while the stream stays open', async () => {
    peer = await startV1SseServer();
    service = await startTestService(new URL(peer.origin));
    const client = new V1Client(CLIENT_INFO);
    await client.connect(new V1SseTransport(new URL('/sse', service.sidecarUrl)));
    const toolCalls = () => trafficTotals(service!, 'outcome', { method: 'tools/call' });
    try {
      const controller = new AbortController();
      // Long enough that the call is still running whatever the machine's load: it is never waited for.
      const call = client.callTool({ name: 'count', arguments: { steps: 100, delayMs: 100 } }, undefined, { signal: controller.signal, onprogress: () => controller.abort('gave up') });
      await expect(call).rejects.toThrow();
      await expect.poll(toolCalls, { timeout: 10_000, interval: 50 }).toEqual({ cancelled: 1 });
      expect(await trafficTotals(service, 'outcome', { method: 'notifications/cancelled' })).toEqual({ accepted: 1 });
      expect(service.health()).toMatchObject({ metering: { pendingAnswers: 0 } });
    } finally {
      await client.close();
    }
    // Closing the stream afterwards does not count the call a second time.
    expect(await service.flush()).toBe(true);
    expect(await toolCalls()).toEqual({ cancelled: 1 });
    expect(await trafficTotals(service, 'transport')).toEqual({ 'http+sse': 5 });
  });
});
