import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { dayStart } from '../../server/analysis/plan-clock.js';
import { compilePolicy, type PolicyPlanInput } from '../../server/policy/compile-policy.js';
import type { CompiledPolicy } from '../../server/policy/compiled-policy.js';
import type { Caller } from '../../server/sidecar/identify-caller.js';
import type { Observation } from '../../server/sidecar/observation.js';
import { StdioMeter } from '../../server/sidecar/stdio-meter.js';
import { wrapStdio, type WrappedProcess } from '../../server/sidecar/wrap-stdio.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

const DAY_MS = 86_400_000;
const NOW = Date.now();
const POLICY_URL = 'https://example.com/mcp/legacy-retirement';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const CALLER: Caller = { integration: 'stdio:old-app', source: 'configured-name' };

const date = (offsetDays: number) => new Date(NOW + offsetDays * DAY_MS).toISOString().slice(0, 10);

/** The legacy era retired yesterday, under `action`. */
function legacyRetired(action: 'deny' | 'dryrun'): CompiledPolicy {
  const plan: PolicyPlanInput = {
    id: 1,
    name: 'Retire the legacy era',
    scope: { kind: 'era', value: 'legacy' },
    action,
    announceDate: date(-60),
    retireDate: date(-1),
    blockNewCallersFrom: null,
    gate: null,
    policyUrl: POLICY_URL,
    brownouts: [],
    exemptions: [],
    cutFrom: dayStart(date(-1)),
    knownCallers: new Set(),
  };
  return compilePolicy({ version: 1, plans: [plan], supportedVersions: ['2026-07-28', '2025-11-25'] }, NOW);
}

const initialize = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const modernList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: MODERN_META } });

interface Harness {
  wrapped: WrappedProcess;
  recorded: Observation<Caller>[];
  stdinLog: string;
  /** Writes raw bytes to the wrapper's stdin, as the client would. */
  send(text: string): void;
  /** The next line the client reads, parsed. */
  next(): Promise<Record<string, unknown>>;
  /** Everything the client read, as bytes. */
  read(): string;
  end(): Promise<number>;
}

/** The real v2 dual-era stdio server behind wrapStdio, driven line by line over in-memory pipes. */
function start(dir: string, policy: CompiledPolicy | undefined, maxLineBytes = 1 << 20): Harness {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const recorded: Observation<Caller>[] = [];
  const meter = new StdioMeter<Caller>((observation) => recorded.push(observation));
  const stdinLog = join(dir, `stdin-${Math.random().toString(36).slice(2)}.log`);
  process.env.PEER_STDIN_LOG = stdinLog;
  const wrapped = wrapStdio({
    command: process.execPath,
    args: ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'peers', 'v2-stdio-server.ts'), 'dual'],
    meter,
    caller: CALLER,
    maxLineBytes,
    onInternalError: (error) => {
      throw error;
    },
    ...(policy === undefined ? {} : { policy: () => policy }),
    now: () => NOW,
    stdin,
    stdout,
  });
  delete process.env.PEER_STDIN_LOG;
  let all = '';
  let unread = '';
  const waiters: (() => void)[] = [];
  stdout.on('data', (chunk: Buffer) => {
    all += chunk.toString('utf8');
    unread += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  });
  const next = async (): Promise<Record<string, unknown>> => {
    while (!unread.includes('\n')) await new Promise<void>((resolve) => waiters.push(resolve));
    const at = unread.indexOf('\n');
    const line = unread.slice(0, at);
    unread = unread.slice(at + 1);
    return JSON.parse(line) as Record<string, unknown>;
  };
  return {
    wrapped,
    recorded,
    stdinLog,
    send: (text) => void stdin.write(text),
    next,
    read: () => all,
    end: () => {
      stdin.end();
      return wrapped.exited;
    },
  };
}

const outcomes = (recorded: Observation<Caller>[]) => recorded.map((o) => [o.message.method, o.message.era, o.outcome, o.attrs.wouldBlock === true]);

describe('wrapStdio with a retirement policy, on the real v2 dual-era stdio server', () => {
  let dir: string;
  let running: Harness | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-wrap-stdio-'));
  });
  afterEach(async () => {
    running?.wrapped.kill('SIGTERM');
    await running?.wrapped.exited;
    running = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('without a policy an initialize pins the dual server to legacy: a modern request after it is answered legacy-shaped', async () => {
    running = start(dir, undefined);
    running.send(`${JSON.stringify(initialize(0))}\n`);
    expect(await running.next()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    running.send(`${JSON.stringify(modernList(1))}\n`);
    const answer = (await running.next()) as { id: number; result: Record<string, unknown> };
    expect(answer.id).toBe(1);
    expect(answer.result.resultType).toBeUndefined();
  });

  test('a refused initialize never reaches the server: the wrapper answers -32022 itself, and the same process then serves a modern opening', async () => {
    running = start(dir, legacyRetired('deny'));
    running.send(`${JSON.stringify(initialize(0))}\r\n`);
    const refusal = (await running.next()) as { id: number; error: { code: number; message: string; data: unknown } };
    expect(refusal.id).toBe(0);
    expect(refusal.error.code).toBe(-32022);
    expect(refusal.error.message).toContain('supported versions: 2026-07-28.');
    expect(refusal.error.message).toContain(POLICY_URL);
    expect(refusal.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });

    running.send(`${JSON.stringify({ jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: { _meta: MODERN_META } })}\n`);
    expect(await running.next()).toMatchObject({ id: 'server-discover-probe-1', result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
    running.send(`${JSON.stringify(modernList(1))}\n`);
    // Modern-shaped: the server was never pinned to legacy by the initialize it never saw.
    expect(await running.next()).toMatchObject({ id: 1, result: { resultType: 'complete' } });

    expect(await running.end()).toBe(0);
    const seen = readFileSync(running.stdinLog, 'utf8');
    expect(seen).not.toContain('"initialize"');
    expect(seen).toContain('"server/discover"');
    expect(outcomes(running.recorded)).toEqual([
      ['initialize', 'legacy', 'blocked', false],
      ['server/discover', 'modern', 'served', false],
      ['tools/list', 'modern', 'served', false],
    ]);
  });

  test('a batch with a refused request is answered whole, one error per request, and nothing of it is passed on; the lines around it pass byte for byte', async () => {
    running = start(dir, legacyRetired('deny'));
    const before = `${JSON.stringify(modernList(1))}\r\n`;
    const batch = `${JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/progress', params: {} }, { jsonrpc: '2.0', id: 8, method: 'ping' }])}\n`;
    const after = `${JSON.stringify(modernList(2))}\n`;
    running.send(before + batch + after);
    const answers = [await running.next(), await running.next(), await running.next()];
    const batchAnswer = answers.find(Array.isArray) as unknown as { id: number; error: { code: number } }[];
    expect(batchAnswer.map((a) => [a.id, a.error.code])).toEqual([[7, -32022], [8, -32022]]);
    expect(answers.filter((a) => !Array.isArray(a)).map((a) => a.id).sort()).toEqual([1, 2]);
    await running.end();
    expect(readFileSync(running.stdinLog, 'utf8')).toBe(before + after);
    expect(running.recorded.filter((o) => o.outcome === 'blocked').map((o) => o.message.method)).toEqual(['tools/list', 'notifications/progress', 'ping']);
  });

  test('a call whose _meta names a legacy revision is legacy on stdio as over HTTP: refused under the cut, never given to the server', async () => {
    running = start(dir, legacyRetired('deny'));
    const legacyMeta = { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2025-06-18' };
    running.send(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: legacyMeta } })}\n`);
    expect(await running.next()).toMatchObject({ id: 3, error: { code: -32022, data: { requested: '2025-06-18' } } });
    running.send(`${JSON.stringify(modernList(4))}\n`);
    expect(await running.next()).toMatchObject({ id: 4, result: { resultType: 'complete' } });
    await running.end();
    expect(readFileSync(running.stdinLog, 'utf8')).toBe(`${JSON.stringify(modernList(4))}\n`);
    expect(running.recorded.filter((o) => o.outcome === 'blocked').map((o) => [o.message.method, o.message.version])).toEqual([['tools/list', '2025-06-18']]);
  });

  test('an initialize padded past the line bound and written in chunks is kept back whole under the cut, answered, and counted blocked once', async () => {
    running = start(dir, legacyRetired('deny'), 4096);
    const padded = `${JSON.stringify({ ...initialize(0), params: { ...initialize(0).params, pad: 'x'.repeat(20_000) } })}\n`;
    for (let at = 0; at < padded.length; at += 1000) running.send(padded.slice(at, at + 1000));
    const refusal = (await running.next()) as { id: unknown; error: { code: number; message: string } };
    expect(refusal).toMatchObject({ id: null, error: { code: -32022 } });
    expect(refusal.error.message).toContain('could not be shown to be modern');
    // The next line is judged as usual.
    running.send(`${JSON.stringify(modernList(5))}\n`);
    expect(await running.next()).toMatchObject({ id: 5, result: { resultType: 'complete' } });
    await running.end();
    const seen = readFileSync(running.stdinLog, 'utf8');
    expect(seen).not.toContain('initialize');
    expect(seen).toBe(`${JSON.stringify(modernList(5))}\n`);
    expect(running.recorded.filter((o) => o.outcome === 'blocked').map((o) => o.message.reason)).toEqual(['body-too-large']);
  });

  test('in a dry run the initialize is passed on and served, counted with would-block on its caller', async () => {
    running = start(dir, legacyRetired('dryrun'));
    running.send(`${JSON.stringify(initialize(0))}\n`);
    expect(await running.next()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    running.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await running.end();
    expect(readFileSync(running.stdinLog, 'utf8')).toContain('"initialize"');
    // The notification is not judged: only requests are refused, so only they are marked.
    expect(outcomes(running.recorded)).toEqual([
      ['initialize', 'legacy', 'served', true],
      ['notifications/initialized', 'legacy', 'no-response', false],
    ]);
  });
});
