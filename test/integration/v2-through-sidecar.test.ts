import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureV1ConnectError, runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const MODERN_SESSION = { 'server/discover': 1, 'tools/list': 1, 'tools/call': 2 };

for (const mode of ['modern', 'dual'] as const) {
  describe(`SDK v2 ${mode === 'modern' ? 'modern-only' : 'dual-era'} server behind the sidecar`, () => {
    let peer: Peer;
    let service: TestService;
    beforeAll(async () => {
      peer = await startV2Server(mode);
    });
    afterAll(async () => {
      await peer?.close();
    });

    for (const client of ['pin', 'auto'] as const) {
      test(`a v2 ${client} client is counted as modern, message by message`, async () => {
        service = await startTestService(new URL(peer.origin));
        try {
          const summary = await runV2Session(new URL('/mcp', service.sidecarUrl), client);
          expect(summary.sum).toBe('3');
          expect(await trafficTotals(service, 'method')).toEqual(MODERN_SESSION);
          expect(await trafficTotals(service, 'era')).toEqual({ modern: 4 });
          expect(await trafficTotals(service, 'outcome')).toEqual({ served: 4 });
          expect(await trafficTotals(service, 'version')).toEqual({ '2026-07-28': 4 });
          expect(await trafficTotals(service, 'reason')).toEqual({ 'modern-meta': 4 });
        } finally {
          await service.dispose();
        }
      });
    }

    test('a modern request naming an unsupported version is counted as unsupported-version', async () => {
      service = await startTestService(new URL(peer.origin));
      try {
        const response = await postModern(service.sidecarUrl, '2099-01-01');
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32022);
        expect(await trafficTotals(service, 'outcome')).toEqual({ 'unsupported-version': 1 });
        expect(await trafficTotals(service, 'era')).toEqual({ modern: 1 });
        expect(await trafficTotals(service, 'version')).toEqual({ '2099-01-01': 1 });
      } finally {
        await service.dispose();
      }
    });
  });
}

describe('legacy v1 clients against v2 servers, through the sidecar', () => {
  test('against the modern-only server the initialize is rejected and counted as legacy', async () => {
    const peer = await startV2Server('modern');
    const service = await startTestService(new URL(peer.origin));
    try {
      const error = await captureV1ConnectError(new URL('/mcp', service.sidecarUrl));
      expect(error.message).toContain('-32022');
      expect(await trafficTotals(service, 'method')).toEqual({ initialize: 1 });
      expect(await trafficTotals(service, 'era')).toEqual({ legacy: 1 });
      expect(await trafficTotals(service, 'outcome')).toEqual({ 'unsupported-version': 1 });
      // A failed initialize keeps the version the client asked for.
      expect(await trafficTotals(service, 'version')).toEqual({ '2025-11-25': 1 });
    } finally {
      await service.dispose();
      await peer.close();
    }
  });

  test('against the dual-era server a v1 client is served statelessly on the legacy path', async () => {
    const peer = await startV2Server('dual');
    const service = await startTestService(new URL(peer.origin));
    try {
      const summary = await runV1HttpSession(new URL('/mcp', service.sidecarUrl));
      expect(summary.sum).toBe('3');
      expect(await trafficTotals(service, 'era')).toEqual({ legacy: 6 });
      // The dual server answers the standalone GET with 405 and never mints a session, so no DELETE.
      expect(await trafficTotals(service, 'method')).toEqual({ initialize: 1, 'notifications/initialized': 1, GET: 1, 'tools/list': 1, 'tools/call': 2 });
      expect(await trafficTotals(service, 'outcome')).toEqual({ served: 4, accepted: 1, 'client-error': 1 });
      expect(await trafficTotals(service, 'reason')).toEqual({ initialize: 2, 'get-stream': 1, 'legacy-version-header': 3 });
    } finally {
      await service.dispose();
      await peer.close();
    }
  });
});

function postModern(origin: URL, version: string): Promise<Response> {
  return fetch(new URL('/mcp', origin), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });
}
