import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLIENT_INFO } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

// Long enough that the call is still running whatever the machine's load: it is never waited for.
const SLOW_COUNT = { name: 'count', arguments: { steps: 100, delayMs: 100 } };
const BOUND = { timeout: 10_000, interval: 50 };

describe('a legacy request the client gives up on, through the sidecar', () => {
  let peer: Peer;
  let service: TestService;
  let client: V1Client;
  let transport: V1HttpTransport;
  beforeEach(async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin));
    client = new V1Client(CLIENT_INFO);
    transport = new V1HttpTransport(new URL('/mcp', service.sidecarUrl));
    await client.connect(transport);
  });
  afterEach(async () => {
    await client?.close();
    await service?.dispose();
    await peer?.close();
  });

  const toolCalls = () => trafficTotals(service, 'outcome', { method: 'tools/call' });

  test('aborted through the SDK (which sends notifications/cancelled) is counted as cancelled at the next flush', async () => {
    const controller = new AbortController();
    const call = client.callTool(SLOW_COUNT, undefined, { signal: controller.signal, onprogress: () => controller.abort('gave up') });
    await expect(call).rejects.toThrow();
    // The cancel travels on its own POST; the count appears once the sidecar has seen it.
    await expect.poll(toolCalls, BOUND).toEqual({ cancelled: 1 });
    expect(await trafficTotals(service, 'outcome', { method: 'notifications/cancelled' })).toEqual({ accepted: 1 });
    expect(service.health()).toMatchObject({ metering: { pendingAnswers: 0 } });
    // Ending the session afterwards does not count the call a second time.
    await transport.terminateSession();
    await client.close();
    expect(await service.flush()).toBe(true);
    expect(await toolCalls()).toEqual({ cancelled: 1 });
  });

  test('left running when the client DELETEs its session is counted as cancelled', async () => {
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const call = client.callTool(SLOW_COUNT, undefined, { onprogress: () => progressed() }).catch((error: unknown) => error);
    await firstProgress;
    await transport.terminateSession();
    await expect.poll(toolCalls, BOUND).toEqual({ cancelled: 1 });
    expect(await trafficTotals(service, 'outcome', { method: 'DELETE' })).toEqual({ served: 1 });
    await client.close();
    await call;
    expect(await toolCalls()).toEqual({ cancelled: 1 });
  });
});
