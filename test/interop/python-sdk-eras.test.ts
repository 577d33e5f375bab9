import { afterEach, describe, expect, inject, test } from 'vitest';
import { runV1HttpSession, runV2Session } from '../peers/clients.js';
import { runPythonClient } from '../peers/python-sdk-client.js';
import { startPythonServer, type PythonServedEntry, type PythonServer } from '../peers/python-sdk-server.js';
import { dayFromNow as day, errorOf, legacyPlan, sendPlan, v1SseAdd } from '../support/enforcement-peers.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * Real clients of both eras through the sidecar in front of the official Python SDK server
 * (`mcp` 2.3.0, dual-era by default): the sidecar counts each request in the era the server's own
 * log says it served it on, and a cut keeps every legacy request away from the server.
 */
const supported = { supportedVersions: ['2026-07-28', '2025-11-25'] };

/** How many of the server's served entries for `method` each era has. */
function servedByEra(entries: PythonServedEntry[], method: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entries) if (entry.method === method) counts[entry.era] = (counts[entry.era] ?? 0) + 1;
  return counts;
}

describe('the Python SDK server behind the sidecar', () => {
  const python = inject('interopPython');
  let server: PythonServer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await server?.close();
    service = undefined;
    server = undefined;
  });

  async function cut(): Promise<void> {
    await sendPlan(service!, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
  }

  test('without a cut, JS and Python clients of each era are counted in the era the server served them on', async () => {
    server = await startPythonServer(python);
    service = await startTestService(new URL(server.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    expect(await runV1HttpSession(url)).toMatchObject({ echo: 'hi era=legacy', sum: '3' });
    expect(await runPythonClient(python, url, 'legacy')).toMatchObject({ sum: '3', protocolVersion: '2025-11-25' });
    expect(await runV2Session(url, 'pin')).toMatchObject({ echo: 'hi era=modern', sum: '3' });
    expect(await runPythonClient(python, url, '2026-07-28')).toMatchObject({ sum: '3', protocolVersion: '2026-07-28' });
    expect(await runPythonClient(python, url, 'auto')).toMatchObject({ sum: '3', protocolVersion: '2026-07-28' });

    const served = server.served();
    // The server's own view: the v1 session (echo, add) and the Python legacy client (add) on its legacy leg.
    expect(servedByEra(served, 'tools/call')).toEqual({ legacy: 3, modern: 4 });
    for (const method of ['tools/call', 'tools/list', 'initialize']) {
      expect(await trafficTotals(service, 'era', { method, outcome: 'served' }), method).toEqual(servedByEra(served, method));
    }
  });

  test('a deny cut on the legacy era: legacy clients are refused with -32022 and never reach the server; modern clients are served', async () => {
    server = await startPythonServer(python);
    service = await startTestService(new URL(server.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    await cut();
    expect((await errorOf(() => runV1HttpSession(url))).message).toContain('-32022');
    expect(await runPythonClient(python, url, 'legacy')).toMatchObject({ error: expect.stringMatching(/32022|[Uu]nsupported protocol version/) });
    expect(server.log()).toEqual([]);

    expect(await runV2Session(url, 'pin')).toMatchObject({ echo: 'hi era=modern', sum: '3' });
    expect(await runPythonClient(python, url, '2026-07-28')).toMatchObject({ sum: '3' });
    expect(new Set(server.served().map((entry) => entry.era))).toEqual(new Set(['modern']));
    expect(await trafficTotals(service, 'era', { outcome: 'blocked' })).toEqual({ legacy: 2 });
  });

  test('over HTTP+SSE (the SDK\'s sse_app): a v1 client is served and counted on the legacy era, and refused past a cut', async () => {
    server = await startPythonServer(python, { transport: 'sse' });
    service = await startTestService(new URL(server.origin), { enforcement: supported });
    const sse = new URL('/sse', service.sidecarUrl);
    expect(await v1SseAdd(sse)).toBe('3');
    expect(servedByEra(server.served(), 'tools/call')).toEqual({ legacy: 1 });
    expect(await trafficTotals(service, 'transport', { method: 'tools/call', outcome: 'served' })).toEqual({ 'http+sse': 1 });
    expect(await trafficTotals(service, 'era', { method: 'tools/call', outcome: 'served' })).toEqual({ legacy: 1 });

    await cut();
    const before = server.log().length;
    await errorOf(() => v1SseAdd(sse));
    expect(server.log().slice(before)).toEqual([]);
  });
});
