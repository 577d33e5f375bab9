import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listTraffic } from '../../server/store/sqlite/list-traffic.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { eventsInBatch, readSpool } from '../../server/store/spool-file.js';
import { textOf } from '../peers/clients.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

const TSX = ['--import', 'tsx'];
// Long enough that the call is still running whatever the machine's load: it is never waited for.
const SLOW_COUNT = { name: 'count', arguments: { steps: 100, delayMs: 100 } };
const BOUND = { timeout: 10_000, interval: 50 };
const CLI = join(PROJECT_ROOT, 'server', 'cli', 'main.ts');

/** The command a client runs instead of the server: the sidecar's wrap around it. */
function wrapped(db: string, caller: string, server: string, ...serverArgs: string[]) {
  return wrappedWith([], db, caller, server, ...serverArgs);
}

function wrappedWith(wrapFlags: string[], db: string, caller: string, server: string, ...serverArgs: string[]) {
  return {
    command: process.execPath,
    args: [...TSX, CLI, 'wrap', ...wrapFlags, '--db', db, '--caller', caller, '--', process.execPath, ...TSX, join(PROJECT_ROOT, 'test', 'peers', server), ...serverArgs],
    cwd: PROJECT_ROOT,
  };
}

function totals(db: string, groupBy: 'era' | 'method' | 'version' | 'outcome' | 'integration' | 'reason', filters: Record<string, string> = {}) {
  const store = openDatabase(db);
  try {
    return listTraffic(store.db, { from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'hour', groupBy, filters }).totals;
  } finally {
    store.close();
  }
}

describe('mcp-sunset wrap: a stdio server with the sidecar in between', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-wrap-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a v1 client and v1 server talk through it, and the legacy session is counted message by message', async () => {
    const db = join(dir, 'v1.db');
    const client = new V1Client({ name: 'wrap-test', version: '1' });
    await client.connect(new V1StdioTransport(wrapped(db, 'desktop-app', 'v1-stdio-server.ts')));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    await client.close();
    await expect.poll(() => totals(db, 'method'), { timeout: 10_000 }).toEqual({ initialize: 1, 'notifications/initialized': 1, 'tools/list': 1, 'tools/call': 2 });
    expect(totals(db, 'era')).toEqual({ legacy: 5 });
    expect(totals(db, 'version')).toEqual({ '2025-11-25': 5 });
    // stdio has no acknowledgement for notifications: the initialized notification has no outcome.
    expect(totals(db, 'outcome')).toEqual({ served: 4, 'no-response': 1 });
    expect(totals(db, 'reason')).toEqual({ initialize: 2, 'stdio-process': 3 });
    expect(totals(db, 'integration')).toEqual({ 'stdio:desktop-app': 5 });
  });

  test('a pinned v2 client and a modern-only v2 server: the probe process and the session are both counted as modern', async () => {
    const db = join(dir, 'v2.db');
    const client = new V2Client({ name: 'wrap-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new V2StdioTransport(wrapped(db, 'agent', 'v2-stdio-server.ts', 'modern')));
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    await client.close();
    // The v2 client probes with server/discover on a short-lived sibling process, then opens the session.
    await expect.poll(() => totals(db, 'method'), { timeout: 10_000 }).toEqual({ 'server/discover': 1, 'tools/call': 1 });
    expect(totals(db, 'era')).toEqual({ modern: 2 });
    expect(totals(db, 'outcome')).toEqual({ served: 2 });
    expect(totals(db, 'version')).toEqual({ '2026-07-28': 2 });
  });

  test('a v1 client against a modern-only server is refused and counted as legacy unsupported-version', async () => {
    const db = join(dir, 'refused.db');
    const client = new V1Client({ name: 'wrap-test', version: '1' });
    await expect(client.connect(new V1StdioTransport(wrapped(db, 'old-app', 'v2-stdio-server.ts', 'modern')))).rejects.toThrow(/-32022/);
    await client.close();
    await expect.poll(() => totals(db, 'outcome'), { timeout: 10_000 }).toEqual({ 'unsupported-version': 1 });
    expect(totals(db, 'era')).toEqual({ legacy: 1 });
  });

  describe('a request the client gives up on', () => {
    test('a v1 client aborting a call (the SDK sends notifications/cancelled) has it counted as cancelled while the process still runs', async () => {
      const db = join(dir, 'v1-cancel.db');
      const client = new V1Client({ name: 'wrap-test', version: '1' });
      await client.connect(new V1StdioTransport(wrapped(db, 'desktop-app', 'v1-stdio-server.ts')));
      const controller = new AbortController();
      const call = client.callTool(SLOW_COUNT, undefined, { signal: controller.signal, onprogress: () => controller.abort('gave up') });
      await expect(call).rejects.toThrow();
      // Settled by the cancel itself: the server is still running and never answers the call.
      await expect.poll(() => totals(db, 'outcome', { method: 'tools/call' }), BOUND).toEqual({ cancelled: 1 });
      expect(totals(db, 'outcome', { method: 'notifications/cancelled' })).toEqual({ 'no-response': 1 });
      await client.close();
      // The process has ended and its last counts are written: the call is not counted a second time.
      await expect.poll(() => totals(db, 'method'), BOUND).toEqual({ initialize: 1, 'notifications/initialized': 1, 'tools/call': 1, 'notifications/cancelled': 1 });
      expect(totals(db, 'outcome', { method: 'tools/call' })).toEqual({ cancelled: 1 });
      expect(totals(db, 'era')).toEqual({ legacy: 4 });
    });

    test('a v1 call still running when the process ends, never cancelled, is counted as no-response', async () => {
      const db = join(dir, 'v1-left.db');
      const client = new V1Client({ name: 'wrap-test', version: '1' });
      await client.connect(new V1StdioTransport(wrapped(db, 'desktop-app', 'v1-stdio-server.ts')));
      let progressed!: () => void;
      const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
      const call = client.callTool(SLOW_COUNT, undefined, { onprogress: () => progressed() }).catch((error: unknown) => error);
      await firstProgress;
      await client.close();
      await call;
      await expect.poll(() => totals(db, 'outcome', { method: 'tools/call' }), BOUND).toEqual({ 'no-response': 1 });
      expect(totals(db, 'method')).toEqual({ initialize: 1, 'notifications/initialized': 1, 'tools/call': 1 });
    });

    test('a pinned v2 client aborting a call sends notifications/cancelled on stdio too: the modern call is counted as cancelled', async () => {
      const db = join(dir, 'v2-cancel.db');
      const client = new V2Client({ name: 'wrap-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new V2StdioTransport(wrapped(db, 'agent', 'v2-stdio-server.ts', 'modern')));
      const controller = new AbortController();
      const call = client.callTool(SLOW_COUNT, { signal: controller.signal, onprogress: () => controller.abort('gave up') });
      await expect(call).rejects.toThrow();
      await expect.poll(() => totals(db, 'outcome', { method: 'tools/call' }), BOUND).toEqual({ cancelled: 1 });
      await client.close();
      await expect.poll(() => totals(db, 'method'), BOUND).toEqual({ 'server/discover': 1, 'tools/call': 1, 'notifications/cancelled': 1 });
      expect(totals(db, 'outcome', { method: 'tools/call' })).toEqual({ cancelled: 1 });
      expect(totals(db, 'era', { method: 'tools/call' })).toEqual({ modern: 1 });
    });
  });

  test('counts a locked database refuses when the server exits go to the spool, and the next wrap stores them once', async () => {
    const db = join(dir, 'spool.db');
    openDatabase(db).close();
    const locker = new Database(db);
    const session = async () => {
      const client = new V1Client({ name: 'wrap-test', version: '1' });
      await client.connect(new V1StdioTransport(wrapped(db, 'desktop-app', 'v1-stdio-server.ts')));
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
      await client.close();
    };
    try {
      locker.exec('BEGIN EXCLUSIVE');
      await session();
      // initialize, notifications/initialized and tools/call.
      await expect.poll(() => readSpool(`${db}.spool`).reduce((sum, entry) => sum + eventsInBatch(entry.batch), 0), BOUND).toBe(3);
      locker.exec('COMMIT');
    } finally {
      locker.close();
    }
    await session();
    await expect.poll(() => totals(db, 'era'), BOUND).toEqual({ legacy: 6 });
    expect(existsSync(`${db}.spool`)).toBe(false);
    expect(totals(db, 'method')).toEqual({ initialize: 2, 'notifications/initialized': 2, 'tools/call': 2 });
  });

  test('with a byte budget smaller than one request, traffic still flows, each request is counted as no-response, and the exit log says how many were pushed out', async () => {
    const db = join(dir, 'squeezed.db');
    const config = join(dir, 'squeezed.json');
    writeFileSync(config, JSON.stringify({ caps: { pendingAnswersBytes: 64 } }));
    const transport = new V1StdioTransport({ ...wrappedWith(['--config', config], db, 'desktop-app', 'v1-stdio-server.ts'), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new V1Client({ name: 'wrap-test', version: '1' });
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    await client.close();
    await expect.poll(() => totals(db, 'method'), BOUND).toEqual({ initialize: 1, 'notifications/initialized': 1, 'tools/call': 1 });
    expect(totals(db, 'outcome')).toEqual({ 'no-response': 3 });
    await expect.poll(() => stderr, BOUND).toContain('"bytesEvictions":2');
    const line = stderr.split('\n').find((text) => text.includes('"bytesEvictions"'))!;
    expect(JSON.parse(line)).toMatchObject({ bytesEvictions: 2, heldBytesBudget: 128 });
  });
});
