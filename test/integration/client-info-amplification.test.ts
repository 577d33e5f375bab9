/** Many callers, each with its own bearer token and a ~900 KB clientInfo name: the database stays small. */
import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_CLIENT_INFO_CHARS } from '../../server/protocol/classified-message.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const CALLERS = 120;
const NAME_CHARS = 900_000;
const KIB = 1024;

function fileBytes(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/**
 * The database's size with its WAL folded in: the WAL holds a page once per flush that rewrote it,
 * so its length follows how many flushes ran (the machine's speed), not what is kept.
 */
function checkpointedBytes(service: TestService): number {
  service.database().sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return fileBytes(service.dbPath) + fileBytes(`${service.dbPath}-wal`);
}

describe('callers with ~900 KB clientInfo names', () => {
  let upstream: RawUpstream;
  let service: TestService;
  /** The database and its WAL as a start with no traffic leaves them: the schema, the migrations. */
  let emptyBytes = 0;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'upstream', version: '1' } } }));
    });
    service = await startTestService(new URL(upstream.origin));
    emptyBytes = checkpointedBytes(service);
    for (let n = 0; n < CALLERS; n += 1) {
      const clientInfo = { name: `caller-${n}-`.padEnd(NAME_CHARS, 'n'), version: '1.0.0' };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
      const response = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream', 'Authorization', `Bearer token-${n}`], body);
      expect(response.status).toBe(200);
      upstream.received.length = 0;
    }
    expect(await service.flush()).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('each stored clientInfo is cut to the cap, and the database grows by no more than the cap allows', async () => {
    const stored = service.database().sqlite.prepare('SELECT client_info_name AS name, client_info_version AS version FROM integrations').all() as { name: string; version: string }[];
    expect(stored).toHaveLength(CALLERS);
    for (const row of stored) {
      expect(row.name.length).toBe(MAX_CLIENT_INFO_CHARS);
      expect(row.version).toBe('1.0.0');
    }
    // Per caller: its capped name (UTF-8, up to 4 bytes a character) and a few rows of counts, on top
    // of what an empty start leaves (the schema).
    const bound = emptyBytes + CALLERS * (4 * MAX_CLIENT_INFO_CHARS + 4 * KIB);
    expect(checkpointedBytes(service)).toBeLessThan(bound);
  });

  test('the integrations API answers one page at a time, with the split over every caller', async () => {
    const first = await service.api('/api/v1/integrations');
    expect(first.status).toBe(200);
    expect(first.body.integrations).toHaveLength(100);
    expect(first.body.page).toEqual({ offset: 0, limit: 100, total: CALLERS, nextOffset: 100 });
    const rest = await service.api('/api/v1/integrations?offset=100&limit=1000');
    expect(rest.status).toBe(200);
    expect(rest.body.page).toEqual({ offset: 100, limit: 1000, total: CALLERS, nextOffset: null });
    const keys = new Set([...first.body.integrations, ...rest.body.integrations].map((i: { key: string }) => i.key));
    expect(keys.size).toBe(CALLERS);
    expect(rest.body.split).toEqual(first.body.split);
    for (const integration of rest.body.integrations) expect(integration.claimsToBe.name.length).toBe(MAX_CLIENT_INFO_CHARS);
  });

  test.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['cursor=abc', 'cursor'],
  ])('a bad page parameter (%s) is refused with 400 naming %s', async (query, field) => {
    const { status, body } = await service.api(`/api/v1/integrations?${query}`);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain(field);
  });
});
