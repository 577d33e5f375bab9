import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport as V1StdioTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIRST_MODERN_VERSION, META_PROTOCOL_VERSION } from '../../server/protocol/versions.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import { listTraffic } from '../../server/store/sqlite/list-traffic.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import { runV1FullSession } from '../peers/run-v1-full-session.js';
import { planInput } from '../support/plan-input.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

const TSX = ['--import', 'tsx'];
const CLI = join(PROJECT_ROOT, 'server', 'cli', 'main.ts');
const SERVER = join(PROJECT_ROOT, 'test', 'peers', 'v2-stdio-server.ts');
const BOUND = { timeout: 20_000, interval: 50 };
const DAY_MS = 86_400_000;
/** The only notification a modern stdio client sends (26:basic/transports/stdio.mdx §Cancellation). */
const MODERN_NOTIFICATIONS = new Set(['notifications/cancelled']);

type Group = 'era' | 'method' | 'version' | 'outcome' | 'reason';

/** The command a client runs instead of the server: wrap around the v2 stdio server, recording what reaches it. */
function wrapped(flags: string[], db: string, stdinLog: string, ...serverArgs: string[]): StdioServerParameters {
  return {
    command: process.execPath,
    args: [...TSX, CLI, 'wrap', ...flags, '--db', db, '--', process.execPath, ...TSX, SERVER, ...serverArgs],
    cwd: PROJECT_ROOT,
    env: { ...getDefaultEnvironment(), PEER_STDIN_LOG: stdinLog },
  };
}

/** The same server, launched by the client itself. */
function direct(...serverArgs: string[]): StdioServerParameters {
  return { command: process.execPath, args: [...TSX, SERVER, ...serverArgs], cwd: PROJECT_ROOT };
}

function totals(db: string, groupBy: Group, filters: Record<string, string> = {}) {
  const store = openDatabase(db);
  try {
    return listTraffic(store.db, { from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'hour', groupBy, filters }).totals;
  } finally {
    store.close();
  }
}

/** Every JSON line the server read on stdin, once it has read to the end. */
async function linesSeen(stdinLog: string): Promise<Record<string, unknown>[]> {
  await expect.poll(() => existsSync(`${stdinLog}.ended`), BOUND).toBe(true);
  return readFileSync(stdinLog, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A modern request (its own version in `_meta`) or a notification the modern era has. */
function isModernLine(line: Record<string, unknown>): boolean {
  const params = line.params as { _meta?: Record<string, unknown> } | undefined;
  if (!('id' in line)) return MODERN_NOTIFICATIONS.has(line.method as string);
  return typeof line.method === 'string' && params?._meta?.[META_PROTOCOL_VERSION] === FIRST_MODERN_VERSION;
}

/** A v1 stdio transport that lets the client speak only once the server behind the wrapper is up and reading. */
class ServerUpTransport extends V1StdioTransport {
  constructor(
    parameters: StdioServerParameters,
    private readonly stdinLog: string | undefined,
  ) {
    super(parameters);
  }
  override async start(): Promise<void> {
    await super.start();
    // Else a client that fails at once may close the wrapper before the server ever reads its stdin.
    if (this.stdinLog !== undefined) await expect.poll(() => existsSync(this.stdinLog!), BOUND).toBe(true);
  }
}

async function connectError(parameters: StdioServerParameters, stdinLog?: string): Promise<{ code: unknown; message: string; data: unknown }> {
  const client = new V1Client(CLIENT_INFO);
  try {
    await client.connect(new ServerUpTransport(parameters, stdinLog));
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message: string; data?: unknown };
    return { code, message, data };
  } finally {
    await client.close();
  }
  throw new Error('expected the v1 client to fail to connect');
}

describe('mcp-sunset wrap --bridge: a legacy stdio client in front of a modern-only stdio server', () => {
  let dir: string;
  let runs = 0;
  const fresh = () => {
    runs += 1;
    return { db: join(dir, `run-${runs}.db`), log: join(dir, `run-${runs}-stdin.log`) };
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-wrap-bridge-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('an SDK v1 client gets through the bridge what the dual-era server gives it directly; the server reads only modern lines; each client message is counted once as bridged legacy', async () => {
    const { db, log } = fresh();
    const bridged = await runV1FullSession({ transport: new V1StdioTransport(wrapped(['--bridge'], db, log, 'modern', 'bridge')) });
    const plain = await runV1FullSession({ transport: new V1StdioTransport(direct('dual', 'bridge')) });
    expect(bridged).toEqual(plain);
    expect(bridged.confirmed).toBe('deploy: confirmed (ok)');
    expect(bridged.asked).toEqual(['Really deploy?']);
    expect(bridged.toolNames).toContain('confirm');

    const seen = await linesSeen(log);
    expect(seen.map((line) => line.method)).toContain('server/discover');
    expect(seen.filter((line) => !isModernLine(line))).toEqual([]);

    const methods = { initialize: 1, 'notifications/initialized': 1, 'tools/list': 1, 'tools/call': 2, 'resources/list': 1, 'resources/read': 1, 'prompts/list': 1, 'prompts/get': 1, 'elicitation/create': 1 };
    await expect.poll(() => totals(db, 'method'), BOUND).toEqual(methods);
    expect(totals(db, 'era')).toEqual({ legacy: 10 });
    expect(totals(db, 'reason')).toEqual({ bridge: 10 });
    expect(totals(db, 'version')).toEqual({ '2025-11-25': 10 });
    // stdio has no acknowledgement for notifications, nor for the client's answer to the elicitation.
    expect(totals(db, 'outcome')).toEqual({ served: 8, 'no-response': 2 });
    expect(totals(db, 'outcome', { method: 'elicitation/create' })).toEqual({ 'no-response': 1 });
  });

  test('resource subscriptions and list changes reach the v1 client, from a modern subscriptions/listen the bridge holds for it', async () => {
    const { db, log } = fresh();
    const client = new V1Client(CLIENT_INFO);
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => void updated.push(notification.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void (listChanged += 1));
    await client.connect(new V1StdioTransport(wrapped(['--bridge'], db, log, 'modern', 'bridge')));
    try {
      await client.subscribeResource({ uri: 'demo://about' });
      expect(textOf(await client.callTool({ name: 'touch', arguments: { uri: 'demo://about' } }))).toBe('touched demo://about');
      await expect.poll(() => updated, BOUND).toEqual(['demo://about']);
      await expect.poll(() => listChanged, BOUND).toBeGreaterThan(0);
      // A resource the client did not subscribe to reaches it not.
      await client.callTool({ name: 'touch', arguments: { uri: 'demo://other' } });
      await client.unsubscribeResource({ uri: 'demo://about' });
      await client.callTool({ name: 'touch', arguments: { uri: 'demo://about' } });
      await expect.poll(() => listChanged, BOUND).toBeGreaterThanOrEqual(3);
      expect(updated).toEqual(['demo://about']);
    } finally {
      await client.close();
    }
    const seen = await linesSeen(log);
    expect(seen.filter((line) => line.method === 'subscriptions/listen').length).toBe(3);
    expect(seen.filter((line) => !isModernLine(line))).toEqual([]);
  });

  test('progress from the modern server reaches the v1 client through the bridge, 1..n before the result', async () => {
    const { db, log } = fresh();
    const client = new V1Client(CLIENT_INFO);
    await client.connect(new V1StdioTransport(wrapped(['--bridge'], db, log, 'modern')));
    const seen: string[] = [];
    const result = await client.callTool({ name: 'count', arguments: { steps: 3, delayMs: 20 } }, undefined, {
      onprogress: (p) => void seen.push(`progress ${p.progress}`),
    });
    seen.push('result');
    await client.close();
    // A v1 client drops a request's progress once its result is in: all three arrived first.
    expect(seen).toEqual(['progress 1', 'progress 2', 'progress 3', 'result']);
    expect(textOf(result)).toBe('counted 3');
    await expect.poll(() => totals(db, 'outcome', { method: 'tools/call' }), BOUND).toEqual({ served: 1 });
    expect(totals(db, 'reason', { method: 'tools/call' })).toEqual({ bridge: 1 });
  });

  test('a v1 client cancelling a call: the bridge passes the modern cancel naming its own id to the server, answers nothing, and the call is counted cancelled', async () => {
    const { db, log } = fresh();
    const client = new V1Client(CLIENT_INFO);
    await client.connect(new V1StdioTransport(wrapped(['--bridge'], db, log, 'modern')));
    const controller = new AbortController();
    const call = client.callTool({ name: 'count', arguments: { steps: 100, delayMs: 100 } }, undefined, { signal: controller.signal, onprogress: () => controller.abort('gave up') });
    await expect(call).rejects.toThrow();
    await expect.poll(() => totals(db, 'outcome', { method: 'tools/call' }), BOUND).toEqual({ cancelled: 1 });
    // The process keeps serving after the cancel.
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    await client.close();

    const seen = await linesSeen(log);
    expect(seen.filter((line) => !isModernLine(line))).toEqual([]);
    const calls = seen.filter((line) => line.method === 'tools/call');
    const cancels = seen.filter((line) => line.method === 'notifications/cancelled');
    expect(cancels).toHaveLength(1);
    const cancelled = (cancels[0]!.params as { requestId: unknown }).requestId;
    // The server was asked to cancel the id the bridge gave the call, which no client ever used.
    expect(cancelled).toBe(calls[0]!.id);
    expect(String(cancelled)).toMatch(/^mcp-sunset-bridge-/);
    await expect.poll(() => totals(db, 'method'), BOUND).toEqual({ initialize: 1, 'notifications/initialized': 1, 'tools/call': 2, 'notifications/cancelled': 1 });
    expect(totals(db, 'outcome', { method: 'tools/call' })).toEqual({ cancelled: 1, served: 1 });
    expect(totals(db, 'reason')).toEqual({ bridge: 5 });
  });

  test('a plan that refuses the legacy era still refuses before the bridge: -32022, the server reads nothing, counted blocked once', async () => {
    const { db, log } = fresh();
    const config = join(dir, `run-${runs}.json`);
    writeFileSync(config, JSON.stringify({ enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] } }));
    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
    const store = openDatabase(db);
    insertPlan(store.db, planInput({ name: 'Retire the legacy era', announceDate: day(-60), retireDate: day(-1) }), Date.now());
    store.close();
    const error = await connectError(wrapped(['--bridge', '--config', config], db, log, 'modern'), log);
    expect(error.code).toBe(-32022);
    expect(error.message).toContain('is retired on this server');
    expect(await linesSeen(log)).toEqual([]);
    await expect.poll(() => totals(db, 'outcome'), BOUND).toEqual({ blocked: 1 });
    expect(totals(db, 'method')).toEqual({ initialize: 1 });
    expect(totals(db, 'reason')).toEqual({ bridge: 1 });
  });

  test('without --bridge the v1 client fails against the modern-only server as it does without the wrapper: the server\'s own refusal, unchanged', async () => {
    const { db, log } = fresh();
    const alone = await connectError(direct('modern'));
    const through = await connectError(wrapped([], db, log, 'modern'), log);
    expect(through).toEqual(alone);
    expect(through.code).toBe(-32022);
    expect((await linesSeen(log)).map((line) => line.method)).toEqual(['initialize']);
    await expect.poll(() => totals(db, 'outcome'), BOUND).toEqual({ 'unsupported-version': 1 });
    expect(totals(db, 'reason')).toEqual({ initialize: 1 });
  });
});
