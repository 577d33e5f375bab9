import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runV1CountWithProgress, runV2CountWithProgress } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const STEPS = 5;
const DELAY_MS = 300;

describe('SSE answers stream through the sidecar event by event', () => {
  let modern: Peer;
  let legacy: Peer;
  let modernSidecar: TestService;
  let legacySidecar: TestService;
  beforeAll(async () => {
    [modern, legacy] = await Promise.all([startV2Server('modern'), startV1SessionServer()]);
    [modernSidecar, legacySidecar] = await Promise.all([startTestService(new URL(modern.origin)), startTestService(new URL(legacy.origin))]);
  });
  afterAll(async () => {
    await Promise.all([modernSidecar?.dispose(), legacySidecar?.dispose()]);
    await Promise.all([modern?.close(), legacy?.close()]);
  });

  test('a modern tool\'s progress reaches the client while the tool is still running', async () => {
    const progress: number[] = [];
    const started = Date.now();
    const result = await runV2CountWithProgress(new URL('/mcp', modernSidecar.sidecarUrl), STEPS, DELAY_MS, (_p, at) => progress.push(at));
    expect(result.text).toBe(`counted ${STEPS}`);
    expect(progress).toHaveLength(STEPS);
    // Buffering would deliver every event together with the result, at the end.
    expect(result.atMs - progress[0]!).toBeGreaterThanOrEqual((STEPS - 2) * DELAY_MS);
    expect(progress[0]! - started).toBeLessThan(result.atMs - started);
    expect(await trafficTotals(modernSidecar, 'outcome', { method: 'tools/call' })).toEqual({ served: 1 });
  });

  test('a legacy tool\'s progress reaches the client while the tool is still running', async () => {
    const progress: number[] = [];
    const result = await runV1CountWithProgress(new URL('/mcp', legacySidecar.sidecarUrl), STEPS, DELAY_MS, (_p, at) => progress.push(at));
    expect(result.text).toBe(`counted ${STEPS}`);
    expect(progress).toHaveLength(STEPS);
    expect(result.atMs - progress[0]!).toBeGreaterThanOrEqual((STEPS - 2) * DELAY_MS);
    // Progress notifications on the stream are not requests: only the call itself is counted.
    expect(await trafficTotals(legacySidecar, 'outcome', { method: 'tools/call' })).toEqual({ served: 1 });
    expect(await trafficTotals(legacySidecar, 'method', { method: 'notifications/progress' })).toEqual({});
  });

  test('a quiet legacy GET stream opens for the client before the server sends any event', async () => {
    const url = new URL('/mcp', legacySidecar.sidecarUrl);
    const post = (body: unknown, sessionId?: string) => fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(sessionId ? { 'mcp-session-id': sessionId } : {}) },
      body: JSON.stringify(body),
    });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const sessionId = init.headers.get('mcp-session-id') ?? undefined;
    await init.text();
    expect(sessionId).toBeDefined();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).text();
    // The server sends nothing on this stream: fetch resolves only if the headers get through alone.
    const bound = AbortSignal.timeout(10_000);
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-06-18' }, signal: bound });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await stream.body?.cancel();
  });
});
