import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_INFO } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const JUNK = 40;
const CAP = 4;

describe('a flood of junk versions, methods and tokens through the sidecar leaves a real client its own counts', () => {
  let peer: Peer;
  let service: TestService;
  beforeAll(async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL('/mcp', peer.origin), {
      caps: { versions: CAP, methods: CAP, integrations: CAP },
      identity: { order: ['static-map', 'bearer'], apiKeyHeader: 'x-api-key', staticMap: { 'partner-key-0001': 'partner-a' } },
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('the SDK client, named by the static map after the flood, keeps its revision, methods and name', async () => {
    for (let i = 0; i < JUNK; i += 1) {
      const version = `junk-${i}`;
      const body = { jsonrpc: '2.0', id: i + 1, method: `junk/m${i}`, params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version } } };
      const headers = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream', 'Authorization', `Bearer random-${i}-${Math.random()}`, 'MCP-Protocol-Version', version];
      await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', headers, JSON.stringify(body));
    }
    const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', service.sidecarUrl), { requestInit: { headers: { 'x-api-key': 'partner-key-0001' } } });
    await client.connect(transport);
    try {
      await client.listTools();
      await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    } finally {
      await client.close();
    }

    const mine = { integration: 'partner-a' };
    expect(await trafficTotals(service, 'method', mine)).toMatchObject({ 'tools/list': 1, 'tools/call': 2 });
    expect(Object.keys(await trafficTotals(service, 'method', mine))).not.toContain('other');
    expect(Object.keys(await trafficTotals(service, 'version', mine))).toEqual(['2026-07-28']);
    const callers = await trafficTotals(service, 'integration');
    const total = Object.values(callers).reduce((sum, n) => sum + n, 0);
    expect(callers['other']).toBe(JUNK - CAP);
    expect(callers['partner-a']).toBe(total - JUNK);

    const versions = await trafficTotals(service, 'version');
    expect(versions['other']).toBe(JUNK - CAP);
    const { metering } = service.health();
    expect(metering).toMatchObject({ overflowedCallerEvents: JUNK - CAP, overflowedVersionEvents: JUNK - CAP, overflowedMethodEvents: JUNK - CAP, overflowedCellEvents: 0, droppedEvents: 0 });
  });
});
