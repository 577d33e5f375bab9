import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { rawRequest, type RawResponse } from '../support/raw-request.js';
import { spawnCli, waitForServing } from '../support/spawn-cli.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const CONCURRENT = 40;

function callBody(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'slow', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
}

const HEADERS = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream', 'MCP-Protocol-Version', '2026-07-28'];

/** tools/call counts in the stopped service's database, by outcome. */
function storedCalls(dbPath: string): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db.prepare("select outcome, sum(count) as n from traffic_minute where method = 'tools/call' group by outcome").all() as { outcome: string; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.outcome, row.n]));
  } finally {
    db.close();
  }
}

function sendCalls(service: { sidecarUrl: URL }): Promise<PromiseSettledResult<RawResponse>[]> {
  return Promise.allSettled(Array.from({ length: CONCURRENT }, (_, i) => rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', HEADERS, callBody(i + 1))));
}

function startSlowUpstream(): Promise<RawUpstream> {
  return startRawUpstream((_req, res, body) => {
    const { id } = JSON.parse(body.toString()) as { id: number };
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [], resultType: 'complete' } })), 300);
  });
}

describe('drainSidecar', () => {
  let upstream: RawUpstream | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await upstream?.close();
    service = upstream = undefined;
  });

  test('requests in flight at stop under a slow upstream are answered, and each one the upstream received is counted', async () => {
    upstream = await startSlowUpstream();
    service = await startTestService(new URL(upstream.origin));
    const calls = sendCalls(service);
    await expect.poll(() => upstream!.received.length).toBe(CONCURRENT);
    await service.stop();
    const results = await calls;

    const answered = results.filter((r) => r.status === 'fulfilled' && r.value.status === 200).length;
    expect(answered).toBe(CONCURRENT);
    expect(storedCalls(service.dbPath)).toEqual({ served: CONCURRENT });
  });

  test('streams still open at the deadline are closed and counted as cancelled', async () => {
    // Headers and nothing more: an answer that would never come.
    upstream = await startRawUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    });
    service = await startTestService(new URL(upstream.origin), { shutdownGraceMs: 200 });
    // Their answers are cut after the headers, so these promises never settle; only the counts matter.
    void sendCalls(service);
    await expect.poll(() => upstream!.received.length).toBe(CONCURRENT);
    await service.stop();

    expect(storedCalls(service.dbPath)).toEqual({ cancelled: CONCURRENT });
  });

  test('SIGTERM to the real CLI under a slow upstream: every request the upstream received is answered and counted once', async () => {
    upstream = await startSlowUpstream();
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-sigterm-'));
    const dbPath = join(dir, 'counts.db');
    const run = spawnCli(['serve', '--upstream', upstream.origin, '--db', dbPath, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--log-level', 'silent']);
    try {
      const { sidecarUrl } = await waitForServing(run);
      const calls = sendCalls({ sidecarUrl });
      await expect.poll(() => upstream!.received.length).toBe(CONCURRENT);
      run.child.kill('SIGTERM');
      const results = await calls;
      expect(await run.exited).toBe(0);
      const answered = results.filter((r) => r.status === 'fulfilled' && r.value.status === 200).length;
      expect(answered).toBe(CONCURRENT);
      expect(storedCalls(dbPath)).toEqual({ served: CONCURRENT });
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
