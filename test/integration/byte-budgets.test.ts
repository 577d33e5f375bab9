/**
 * Amplification by long client-chosen strings: what the sidecar holds stays bounded in bytes, and
 * the exchanges still work.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const MIB = 1024 * 1024;
const ID_CHARS = 900_000;
const REQUESTS = 100;
const PENDING_BUDGET = MIB;
const LEGACY_HEADERS = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream', 'Mcp-Session-Id', 's-1', 'MCP-Protocol-Version', '2025-11-25'];

/** A distinct ~900 KB id; built on demand so the test itself holds none of them. */
function longId(n: number): string {
  return `${n}:`.padEnd(ID_CHARS, 'x');
}

describe('requests with ~900 KB ids parked on a resumable SSE answer', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // A POST gets only the priming event (as SDK v1 sends with an event store) and the stream ends:
      // the answer is to come on a resumed GET, which carries every answer.
      if (req.method === 'POST') return void res.end('id: ev-1\ndata: \n\n');
      for (let n = 0; n < REQUESTS; n += 1) res.write(`id: ev-${n + 2}\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: longId(n), result: { content: [] } })}\n\n`);
      res.end();
    });
    service = await startTestService(new URL(upstream.origin), { caps: { pendingAnswersBytes: PENDING_BUDGET } });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('are all held, as digests within the byte budget, and each is still matched by its answer', async () => {
    const before = heapUsed();
    for (let n = 0; n < REQUESTS; n += 1) {
      const body = `{"jsonrpc":"2.0","id":${JSON.stringify(longId(n))},"method":"tools/call","params":{"name":"echo","arguments":{}}}`;
      const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', LEGACY_HEADERS, body);
      expect(response.status).toBe(200);
    }
    upstream.received.length = 0;
    const grown = heapUsed() - before;

    const held = service.health().metering;
    expect(held.pendingAnswers).toBe(REQUESTS);
    expect(held.bytesEvictions).toBe(0);
    expect(held.heldBytes).toBeGreaterThan(0);
    // Each request is held in a few hundred bytes, far from its id's 900 KB.
    expect(held.heldBytes).toBeLessThan(PENDING_BUDGET);
    expect(held.heldBytes).toBeLessThanOrEqual(held.heldBytesBudget);
    // Held in full, the ids alone would take REQUESTS × 900 KB ≈ 86 MiB of heap.
    expect(grown).toBeLessThan(20 * MIB);

    const resumed = await rawRequest(new URL('/mcp', service.sidecarUrl), 'GET', ['Accept', 'text/event-stream', 'Mcp-Session-Id', 's-1', 'MCP-Protocol-Version', '2025-11-25', 'Last-Event-ID', 'ev-1']);
    expect(resumed.status).toBe(200);
    expect(await trafficTotals(service, 'outcome', { method: 'tools/call' })).toEqual({ served: REQUESTS });
    expect(service.health().metering.pendingAnswers).toBe(0);
    const metrics = await (await fetch(new URL('/metrics', service.apiUrl))).text();
    expect(metrics).toMatch(/^mcp_sunset_held_bytes \d+$/m);
    expect(metrics).toMatch(/^mcp_sunset_byte_evictions 0$/m);
  });
});
