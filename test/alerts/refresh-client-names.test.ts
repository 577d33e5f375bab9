import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { refreshClientNames, type ClientNameSource } from '../../server/alerts/refresh-client-names.js';
import { clientNameSourceFromConfig } from '../../server/cli/client-name-source-from-config.js';
import { identitySchema } from '../../server/config/identity-schema.js';
import { createLogger } from '../../server/lib/create-logger.js';
import type { IntegrationSighting } from '../../server/tally/tally-cell.js';
import { startClientDocuments, type ClientDocuments } from '../support/client-documents.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0);
const HOUR = 3_600_000;
const logger = createLogger('silent');

/**
 * The client-name job against a real SQLite store and a real HTTPS server on 127.0.0.1 serving
 * Client ID Metadata Documents, fetched through the source the service builds from its settings
 * (the test CA trusted, private addresses allowed). Time is the `now` each run is given.
 */
describe('refreshClientNames', () => {
  let documents: ClientDocuments;
  let source: ClientNameSource;
  let temp: TempDatabase;
  const url = (path: string) => `${documents.origin}${path}`;
  const key = (path: string) => `oauth:${url(path)}`;
  const run = (at: number, maxPerRun?: number) =>
    refreshClientNames({ store: temp.backend, source, now: () => at, refreshMs: 24 * HOUR, logger, ...(maxPerRun === undefined ? {} : { maxPerRun }) });
  const fetchedPaths = () => documents.requests.splice(0).map((r) => r.path).sort();
  const record = async (path: string) => {
    const found = await temp.backend.getIntegration(key(path));
    return { clientName: found?.clientName, clientNameAt: found?.clientNameAt };
  };
  const seen = (callers: [string, string][]) => {
    const integrations: IntegrationSighting[] = callers.map(([k, s]) => ({ key: k, source: s, firstSeen: T0, lastSeen: T0, lastLegacySeen: undefined, clientInfo: undefined }));
    return temp.backend.writeTally([{ stream: randomUUID(), node: 'node-1', seq: 1, batch: { cells: [], integrations } }], T0);
  };

  beforeAll(async () => {
    documents = await startClientDocuments();
    const oauth = identitySchema.parse({ oauth: { clientNames: { enabled: true, allowPrivateAddresses: true, caFile: documents.caFile } } }).oauth;
    source = clientNameSourceFromConfig(oauth, logger)!;
  });
  afterAll(async () => {
    await documents?.close();
  });
  beforeEach(() => {
    temp = openTempDatabase();
    documents.requests.length = 0;
    documents.serve('/desk.json', { json: { client_id: url('/desk.json'), client_name: 'Support Desk' } });
  });
  afterEach(() => temp.dispose());

  test('names OAuth callers whose client_id is a URL, and fetches for no other caller', async () => {
    await seen([
      [key('/desk.json'), 'oauth'],
      [key('/broken.json'), 'oauth'],
      ['oauth:desk-app', 'oauth'],
      ['tok_0123456789abcdef', 'bearer-fingerprint'],
      // A gateway may name a caller anything: a URL it chose is not fetched.
      [key('/gateway.json'), 'gateway-header'],
    ]);
    expect(await run(T0)).toEqual({ fetched: 2, named: 1, failed: 1, left: 0 });
    expect(fetchedPaths()).toEqual(['/broken.json', '/desk.json']);
    expect(await record('/desk.json')).toEqual({ clientName: 'Support Desk', clientNameAt: T0 });
    expect(await record('/broken.json')).toEqual({ clientName: null, clientNameAt: T0 });
    expect(await record('/gateway.json')).toEqual({ clientName: null, clientNameAt: null });
    expect(await temp.backend.getIntegration('oauth:desk-app')).toMatchObject({ clientName: null, clientNameAt: null });
  });

  test('refreshes by age: a failure after an hour, a name after refreshHours, and a failed refresh keeps the name', async () => {
    await seen([[key('/desk.json'), 'oauth'], [key('/broken.json'), 'oauth']]);
    await run(T0);
    fetchedPaths();

    expect(await run(T0 + HOUR / 2)).toEqual({ fetched: 0, named: 0, failed: 0, left: 0 });
    expect(fetchedPaths()).toEqual([]);

    expect(await run(T0 + HOUR)).toEqual({ fetched: 1, named: 0, failed: 1, left: 0 });
    expect(fetchedPaths()).toEqual(['/broken.json']);

    expect(await run(T0 + 23 * HOUR)).toMatchObject({ fetched: 1 });
    expect(fetchedPaths()).toEqual(['/broken.json']);

    documents.serve('/desk.json', { json: { client_id: url('/desk.json'), client_name: 'Support Desk 2' } });
    expect(await run(T0 + 24 * HOUR)).toMatchObject({ fetched: 2, named: 1 });
    expect(fetchedPaths()).toEqual(['/broken.json', '/desk.json']);
    expect(await record('/desk.json')).toEqual({ clientName: 'Support Desk 2', clientNameAt: T0 + 24 * HOUR });

    // The document goes away: the name it gave stays, and is not asked for again every hour.
    documents.serve('/desk.json', { status: 500 });
    expect(await run(T0 + 48 * HOUR)).toMatchObject({ fetched: 2, failed: 2 });
    expect(await record('/desk.json')).toEqual({ clientName: 'Support Desk 2', clientNameAt: T0 + 48 * HOUR });
    fetchedPaths();
    await run(T0 + 49 * HOUR);
    expect(fetchedPaths()).toEqual(['/broken.json']);
  });

  test('a run told to stop mid-fetch records nothing more and fetches no further', async () => {
    await seen([[key('/a.json'), 'oauth'], [key('/desk.json'), 'oauth']]);
    const stopping = new AbortController();
    const stopAfterFirst: ClientNameSource = {
      urlOf: (k) => source.urlOf(k),
      async fetch(u, signal) {
        const answer = await source.fetch(u, signal);
        stopping.abort();
        return answer;
      },
    };
    expect(await refreshClientNames({ store: temp.backend, source: stopAfterFirst, now: () => T0, refreshMs: 24 * HOUR, logger, signal: stopping.signal })).toEqual({ fetched: 0, named: 0, failed: 0, left: 2 });
    expect(fetchedPaths()).toEqual(['/a.json']);
    expect(await record('/a.json')).toEqual({ clientName: null, clientNameAt: null });
  });

  test('a run fetches a bounded number, the never-fetched first, and leaves the rest to the next run', async () => {
    await seen([[key('/a.json'), 'oauth'], [key('/b.json'), 'oauth'], [key('/desk.json'), 'oauth']]);
    // /desk.json was fetched long ago and is due again; the two never fetched come before it.
    await temp.backend.setIntegrationClientName(key('/desk.json'), 'Support Desk', T0 - 100 * HOUR);
    expect(await run(T0, 2)).toEqual({ fetched: 2, named: 0, failed: 2, left: 1 });
    expect(fetchedPaths()).toEqual(['/a.json', '/b.json']);
    expect(await run(T0, 2)).toEqual({ fetched: 1, named: 1, failed: 0, left: 0 });
    expect(fetchedPaths()).toEqual(['/desk.json']);
  });
});
