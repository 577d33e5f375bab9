import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { trafficCell } from '../store/temp-database.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';
import { writeBatch } from '../support/write-batch.js';

const DAY_MS = 86_400_000;
const YESTERDAY = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS;
const modern: Partial<TallyCell> = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' };

describe('GET /api/v1/share?node= draws one node\'s share', () => {
  let upstream: RawUpstream;
  let service: TestService;
  const share = (query: string) => service.api(`/api/v1/share?bucket=day&from=${new Date(YESTERDAY).toISOString()}&to=${new Date(YESTERDAY + DAY_MS).toISOString()}${query}`);

  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin));
    const noon = YESTERDAY + 12 * 3_600_000;
    // Served work yesterday: edge-a 30 legacy of 100, edge-b 10 legacy of 100; the fleet 40 of 200.
    await writeBatch(service.store!, {
      cells: [
        trafficCell({ minute: noon, node: 'edge-a', integration: 'tok_a', count: 30 }),
        trafficCell({ minute: noon, node: 'edge-a', integration: 'tok_m', count: 70, ...modern }),
      ],
      integrations: [],
    });
    await writeBatch(service.store!, {
      cells: [
        trafficCell({ minute: noon, node: 'edge-b', integration: 'tok_b', count: 10 }),
        trafficCell({ minute: noon, node: 'edge-b', integration: 'tok_m', count: 90, ...modern }),
      ],
      integrations: [],
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('each node\'s day holds only its own requests; without node= the whole fleet\'s', async () => {
    const point = async (query: string) => {
      const { status, body } = await share(query);
      expect(status).toBe(200);
      expect(body.series).toHaveLength(1);
      return body.series[0];
    };
    expect(await point('&node=edge-a')).toMatchObject({ served: 100, inScope: 30, share: 0.3 });
    expect(await point('&node=edge-b')).toMatchObject({ served: 100, inScope: 10, share: 0.1 });
    expect(await point('')).toMatchObject({ served: 200, inScope: 40, share: 0.2 });
  });

  test('a node\'s points do not claim a count of legacy callers, which is kept for the fleet only', async () => {
    expect((await share('&node=edge-a')).body.series[0].legacyIntegrations).toBeNull();
    expect((await share('')).body.series[0].legacyIntegrations).toBe(2);
  });

  test('a node that wrote nothing has no requests', async () => {
    expect((await share('&node=edge-gone')).body.series[0]).toMatchObject({ served: 0, inScope: 0, share: null });
  });

  test.each([
    ['empty', ''],
    ['longer than 200 characters', 'x'.repeat(201)],
  ])('a node name %s answers 400 naming node', async (_what, node) => {
    const { status, body } = await share(`&node=${node}`);
    expect(status).toBe(400);
    expect(body.error.parameter).toBe('node');
  });
});
