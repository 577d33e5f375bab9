import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/** Every name a plain object answers to without being told: the keys an attacker tries first. */
const BUILT_IN_NAMES = [...new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  ...Object.getOwnPropertyNames(Function.prototype),
  ...Object.getOwnPropertyNames(Array.prototype),
  ...Object.getOwnPropertyNames(String.prototype),
  '__proto__', 'prototype', 'constructor',
])];

/** What may stand in a header value: visible ASCII and inner spaces (Node refuses the rest before it is sent). */
const headerText = fc.oneof(fc.constantFrom(...BUILT_IN_NAMES), fc.stringMatching(/^[!-~]([ -~]{0,38}[!-~])?$/));
const anyText = fc.oneof(fc.constantFrom(...BUILT_IN_NAMES), fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));

const sample = fc.record({
  apiKey: headerText,
  bearer: headerText,
  clientName: anyText,
  method: anyText,
  version: headerText,
  sessionId: fc.option(headerText, { nil: undefined }),
  pathSegment: anyText,
  initialize: fc.boolean(),
});

describe('no label an attacker chooses stops metering or costs a count', () => {
  let peer: Peer;
  let service: TestService;
  beforeAll(async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL('/mcp', peer.origin), {
      identity: { order: ['static-map', 'bearer'], apiKeyHeader: 'x-api-key', staticMap: { 'known-key-0001': 'partner-a' } },
      enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] },
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('built-in property names and random strings as API key, bearer, client name, method, version, session id and path', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(sample, async (s) => {
        const body = s.initialize
          ? { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: s.version, capabilities: {}, clientInfo: { name: s.clientName, version: s.version } } }
          : { jsonrpc: '2.0', id: 2, method: s.method, params: { _meta: { 'io.modelcontextprotocol/protocolVersion': s.version, 'io.modelcontextprotocol/clientInfo': { name: s.clientName, version: '1' } } } };
        const headers = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream', 'X-Api-Key', s.apiKey, 'Authorization', `Bearer ${s.bearer}`, 'MCP-Protocol-Version', s.version];
        if (s.sessionId !== undefined) headers.push('Mcp-Session-Id', s.sessionId);
        const path = `/mcp/${encodeURIComponent(s.pathSegment)}`;
        await rawRequest(new URL(path, service.sidecarUrl), 'POST', headers, JSON.stringify(body));
        sent += 1;
      }),
      { numRuns: 150, seed: 20261206, endOnFailure: true },
    );
    const counted = Object.values(await trafficTotals(service, 'method')).reduce((sum, n) => sum + n, 0);
    expect(counted).toBe(sent);
    const health = service.health();
    expect(health.status).toBe('ok');
    expect(health.metering).toMatchObject({ refusedCells: 0, droppedEvents: 0, meteringErrors: 0, consecutiveFailures: 0 });
  });
});
