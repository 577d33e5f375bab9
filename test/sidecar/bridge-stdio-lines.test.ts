import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { dayStart } from '../../server/analysis/plan-clock.js';
import { createLegacyStdioBridge } from '../../server/bridge/legacy-stdio-bridge.js';
import { compilePolicy } from '../../server/policy/compile-policy.js';
import type { CompiledPolicy } from '../../server/policy/compiled-policy.js';
import type { Caller } from '../../server/sidecar/identify-caller.js';
import type { Observation } from '../../server/sidecar/observation.js';
import { StdioMeter } from '../../server/sidecar/stdio-meter.js';
import { wrapStdio, type WrappedProcess } from '../../server/sidecar/wrap-stdio.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

const NOW = Date.now();
const DAY_MS = 86_400_000;
const BOUND = { timeout: 20_000, interval: 50 };
const CALLER: Caller = { integration: 'stdio:old-app', source: 'configured-name' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const date = (offsetDays: number) => new Date(NOW + offsetDays * DAY_MS).toISOString().slice(0, 10);
const initialize = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** The legacy era retired yesterday, in a dry run: nothing is refused, legacy requests are marked. */
function dryRun(): CompiledPolicy {
  return compilePolicy(
    {
      version: 1,
      plans: [{
        id: 1, name: 'Retire the legacy era', scope: { kind: 'era', value: 'legacy' }, action: 'dryrun', announceDate: date(-60), retireDate: date(-1),
        blockNewCallersFrom: null, gate: null, policyUrl: 'https://example.com/policy', brownouts: [], exemptions: [], cutFrom: dayStart(date(-1)), knownCallers: new Set(),
      }],
      supportedVersions: ['2026-07-28', '2025-11-25'],
    },
    NOW,
  );
}

interface Harness {
  wrapped: WrappedProcess;
  recorded: Observation<Caller>[];
  stdinLog: string;
  send(message: unknown): void;
  sendRaw(text: string): void;
  next(): Promise<Record<string, any>>;
  end(): Promise<number>;
}

/** The real modern-only v2 stdio server behind wrapStdio with the bridge, over in-memory pipes. */
function start(dir: string, options: { maxLineBytes?: number; policy?: CompiledPolicy } = {}): Harness {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const recorded: Observation<Caller>[] = [];
  const stdinLog = join(dir, `stdin-${Math.random().toString(36).slice(2)}.log`);
  process.env.PEER_STDIN_LOG = stdinLog;
  const wrapped = wrapStdio({
    command: process.execPath,
    args: ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'peers', 'v2-stdio-server.ts'), 'modern'],
    meter: new StdioMeter<Caller>((observation) => recorded.push(observation)),
    caller: CALLER,
    maxLineBytes: options.maxLineBytes ?? 1 << 20,
    onInternalError: (error) => {
      throw error;
    },
    ...(options.policy === undefined ? {} : { policy: () => options.policy! }),
    now: () => NOW,
    bridge: (ports) => createLegacyStdioBridge(ports, { inputTimeoutMs: 10_000 }),
    stdin,
    stdout,
  });
  delete process.env.PEER_STDIN_LOG;
  let unread = '';
  const waiters: (() => void)[] = [];
  stdout.on('data', (chunk: Buffer) => {
    unread += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    wrapped,
    recorded,
    stdinLog,
    send: (message) => void stdin.write(`${JSON.stringify(message)}\n`),
    sendRaw: (text) => void stdin.write(text),
    async next() {
      while (!unread.includes('\n')) await new Promise<void>((resolve) => waiters.push(resolve));
      const at = unread.indexOf('\n');
      const line = unread.slice(0, at);
      unread = unread.slice(at + 1);
      return JSON.parse(line) as Record<string, any>;
    },
    end: () => {
      stdin.end();
      return wrapped.exited;
    },
  };
}

const labels = (recorded: Observation<Caller>[]) =>
  recorded.map((o) => [o.message.method, o.message.era, o.message.reason, o.message.version, o.outcome, o.attrs.wouldBlock === true]);

describe('wrapStdio with the bridge, on the real modern-only v2 stdio server', () => {
  let dir: string;
  let running: Harness | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-bridge-lines-'));
  });
  afterEach(async () => {
    running?.wrapped.kill('SIGTERM');
    await running?.wrapped.exited;
    running = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a modern line goes to the server as it came and is counted modern; a legacy one is bridged and counted as the bridge\'s', async () => {
    running = start(dir);
    const discover = `${JSON.stringify({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: MODERN_META } })}\n`;
    const modernList = `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: MODERN_META } })}\n`;
    running.sendRaw(discover);
    expect(await running.next()).toMatchObject({ id: 'd', result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
    running.send(initialize(0));
    expect(await running.next()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    running.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const legacy = await running.next();
    expect(legacy.id).toBe(1);
    expect(legacy.result.resultType).toBeUndefined();
    running.sendRaw(modernList);
    // Passed straight: the modern answer keeps its resultType.
    expect(await running.next()).toMatchObject({ id: 2, result: { resultType: 'complete' } });
    expect(await running.end()).toBe(0);

    const seen = readFileSync(running.stdinLog, 'utf8');
    expect(seen.startsWith(discover)).toBe(true);
    expect(seen.endsWith(modernList)).toBe(true);
    expect(seen).not.toContain('"initialize"');
    expect(labels(running.recorded)).toEqual([
      ['server/discover', 'modern', 'modern-meta', '2026-07-28', 'served', false],
      ['initialize', 'legacy', 'bridge', '2025-11-25', 'served', false],
      ['tools/list', 'legacy', 'bridge', '2025-11-25', 'served', false],
      ['tools/list', 'modern', 'modern-meta', '2026-07-28', 'served', false],
    ]);
  });

  test('a client line past the bound is answered with an error under no id, reaches nobody, and the lines after it are served', async () => {
    running = start(dir, { maxLineBytes: 512 });
    // The bound is on a line still unfinished: this one comes in two pieces, the first past it.
    const long = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping', params: { pad: 'x'.repeat(2_000) } });
    running.sendRaw(long.slice(0, -1));
    running.sendRaw(`${long.slice(-1)}\n`);
    expect(await running.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('512 bytes') } });
    running.send({ jsonrpc: '2.0', id: 6, method: 'ping' });
    expect(await running.next()).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
    await running.end();
    await expect.poll(() => existsSync(`${running!.stdinLog}.ended`), BOUND).toBe(true);
    expect(readFileSync(running.stdinLog, 'utf8')).toBe('');
    expect(labels(running.recorded)).toEqual([['ping', 'legacy', 'bridge', null, 'served', false]]);
  });

  test('in a dry run the policy judges the bridged line first: it is answered by the bridge and counted would-block', async () => {
    running = start(dir, { policy: dryRun() });
    running.send(initialize(0));
    expect(await running.next()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    await running.end();
    expect(labels(running.recorded)).toEqual([['initialize', 'legacy', 'bridge', '2025-11-25', 'served', true]]);
  });
});
