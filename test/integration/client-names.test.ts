import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ConfigInput } from '../../server/config/config-schema.js';
import type { IntegrationSighting } from '../../server/tally/tally-cell.js';
import { startClientDocuments, type ClientDocuments } from '../support/client-documents.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

/**
 * The real service (sidecar, store and API) with `identity.oauth.clientNames` on, and a real HTTPS
 * server on 127.0.0.1 with a test CA's certificate serving an OAuth application's Client ID Metadata
 * Document. The callers are seeded through the store's tally writer, as a flush would write them.
 */
describe('OAuth applications named by their Client ID Metadata Document', () => {
  let documents: ClientDocuments;
  let upstream: RawUpstream;
  const services: TestService[] = [];
  const start = async (overrides: Partial<ConfigInput>) => {
    const service = await startTestService(new URL(upstream.origin), overrides);
    services.push(service);
    return service;
  };
  const seed = (service: TestService, callers: [string, string][]) => {
    const now = Date.now();
    const integrations: IntegrationSighting[] = callers.map(([key, source]) => ({ key, source, firstSeen: now, lastSeen: now, lastLegacySeen: undefined, clientInfo: undefined }));
    return service.store!.writeTally([{ stream: randomUUID(), node: 'test-node', seq: 1, batch: { cells: [], integrations } }], now);
  };
  const listed = async (service: TestService) => {
    const { status, body } = await service.api('/api/v1/integrations');
    expect(status).toBe(200);
    return new Map<string, { clientName: string | null }>(body.integrations.map((i: { key: string; clientName: string | null }) => [i.key, i]));
  };

  beforeAll(async () => {
    documents = await startClientDocuments();
    documents.serve('/client.json', { json: { client_id: `${documents.origin}/client.json`, client_name: 'Support Desk', redirect_uris: ['http://127.0.0.1/cb'] } });
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
  });
  afterAll(async () => {
    for (const service of services) await service.dispose();
    await upstream?.close();
    await documents?.close();
  });

  test('turned on, GET /api/v1/integrations shows the application\'s name beside its URL, and only for it', async () => {
    const service = await start({ identity: { oauth: { clientNames: { enabled: true, allowPrivateAddresses: true, caFile: documents.caFile } } } });
    const desk = `oauth:${documents.origin}/client.json`;
    await seed(service, [[desk, 'oauth'], ['tok_0123456789abcdef', 'bearer-fingerprint']]);
    await service.refreshClientNames!();
    const callers = await listed(service);
    expect(callers.get(desk)).toMatchObject({ key: desk, source: 'oauth', clientName: 'Support Desk' });
    expect(callers.get('tok_0123456789abcdef')).toMatchObject({ clientName: null });
    expect(documents.requests.map((r) => r.path)).toEqual(['/client.json']);
  });

  test('off, as by default, nothing is fetched and no caller has a name', async () => {
    documents.requests.length = 0;
    const service = await start({});
    expect(service.refreshClientNames).toBeUndefined();
    const desk = `oauth:${documents.origin}/client.json`;
    await seed(service, [[desk, 'oauth']]);
    expect((await listed(service)).get(desk)).toMatchObject({ clientName: null });
    expect(documents.requests).toEqual([]);
  });
});
