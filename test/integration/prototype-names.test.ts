import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

// Every name an object literal would answer for without owning it.
const NAMES = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'].filter((name, index, all) => all.indexOf(name) === index);

describe('labels named like built-ins', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res, body) => {
      const { id } = JSON.parse(body.toString()) as { id: number };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
    });
    service = await startTestService(new URL(upstream.origin));
    // Name i is sent i + 1 times, so a count that lands under the wrong name shows.
    for (const [index, name] of NAMES.entries()) {
      for (let n = 0; n <= index; n += 1) {
        const body = `{"jsonrpc":"2.0","id":${n + 1},"method":${JSON.stringify(name)},"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":${JSON.stringify(name)}}}}`;
        const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'], body);
        expect(response.status).toBe(200);
      }
    }
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  const expected = () => {
    const counts = new Map<string, number>();
    for (const [index, name] of NAMES.entries()) counts.set(name, index + 1);
    return counts;
  };

  for (const groupBy of ['method', 'version']) {
    test(`every built-in name comes back from the traffic API grouped by ${groupBy} with exactly its count`, async () => {
      const totals = await trafficTotals(service, groupBy, { kind: 'request' });
      expect(Object.keys(totals).sort()).toEqual([...NAMES].sort());
      for (const [name, count] of expected()) {
        expect(Object.hasOwn(totals, name), name).toBe(true);
        expect(typeof totals[name], name).toBe('number');
        expect(totals[name], name).toBe(count);
      }
    });

    test(`each bucket of the series grouped by ${groupBy} holds only numbers under the names`, async () => {
      const params = new URLSearchParams({ bucket: 'day', groupBy, kind: 'request', from: new Date(Date.now() - 86_400_000).toISOString() });
      const { status, body } = await service.api(`/api/v1/traffic?${params}`);
      expect(status).toBe(200);
      const summed = new Map<string, number>();
      for (const point of body.series as { counts: Record<string, unknown> }[]) {
        for (const [name, count] of Object.entries(point.counts)) {
          expect(typeof count, name).toBe('number');
          summed.set(name, (summed.get(name) ?? 0) + (count as number));
        }
      }
      expect(summed).toEqual(expected());
    });
  }
});
