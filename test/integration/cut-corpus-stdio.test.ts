import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { dayStart } from '../../server/analysis/plan-clock.js';
import { compilePolicy, type PolicyPlanInput } from '../../server/policy/compile-policy.js';
import type { CompiledPolicy } from '../../server/policy/compiled-policy.js';
import type { Caller } from '../../server/sidecar/identify-caller.js';
import type { Observation } from '../../server/sidecar/observation.js';
import { StdioMeter } from '../../server/sidecar/stdio-meter.js';
import { wrapStdio, type WrappedProcess } from '../../server/sidecar/wrap-stdio.js';
import { corpusSettings } from '../support/cut-corpus-check.js';
import { MODERN_VERSION, VERSION_META_KEY } from '../support/cut-corpus.js';
import type { ServedEntry } from '../support/served-log.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { describeStdioVariant, messagesOf, renderStdioVariant, STDIO_CORPUS_DIMENSIONS, stdioCorpusSize, stdioVariant, type StdioVariant } from '../support/stdio-cut-corpus.js';

/**
 * The differential property of a cut on stdio: each variant of the stdio corpus
 * (test/support/stdio-cut-corpus.ts) is written, in its pieces, through `wrapStdio` with a deny cut
 * on the legacy era in force, to the real v2 dual-era stdio server (test/peers/v2-stdio-server.ts),
 * one process for the whole run. The server keeps two logs of its own: every byte it read on stdin
 * (PEER_STDIN_LOG) and every message its SDK delivered to a server instance, with that instance's
 * era (PEER_SERVED_LOG). Past the cut:
 * - nothing is served on the legacy path;
 * - no line the server read is a request its SDK opens a connection on as legacy (serveStdio's
 *   opening rule, mirrored in `opensLegacy`): a connection pinned modern hands such a request to
 *   its modern instance, so the served log alone would not show it;
 * - what is served on the modern path is counted modern, and not refused.
 * After each variant a modern `server/discover` (the sentinel) is written and its answer awaited:
 * both sides have then handled everything before it. It leaves an unpinned connection unpinned.
 *
 * CUT_CORPUS_RUNS, CUT_CORPUS_SEED and CUT_CORPUS_SURVEY as in cut-corpus-property.test.ts.
 */
const SETTINGS = corpusSettings(800);
const MAX_LINE_BYTES = 4096;
const NOW = Date.now();
const DAY_MS = 86_400_000;
const CALLER: Caller = { integration: 'stdio:corpus', source: 'configured-name' };
const MODERN_META = { [VERSION_META_KEY]: MODERN_VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'sentinel', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

const date = (offsetDays: number) => new Date(NOW + offsetDays * DAY_MS).toISOString().slice(0, 10);

/** The legacy era retired yesterday, denied (as in test/sidecar/wrap-stdio.test.ts). */
function legacyRetired(): CompiledPolicy {
  const plan: PolicyPlanInput = {
    id: 1,
    name: 'Retire the legacy era',
    scope: { kind: 'era', value: 'legacy' },
    action: 'deny',
    announceDate: date(-60),
    retireDate: date(-1),
    blockNewCallersFrom: null,
    gate: null,
    policyUrl: 'https://example.com/mcp/legacy-retirement',
    brownouts: [],
    exemptions: [],
    cutFrom: dayStart(date(-1)),
    knownCallers: new Set(),
  };
  return compilePolicy({ version: 1, plans: [plan], supportedVersions: [MODERN_VERSION, '2025-11-25'] }, NOW);
}

interface Rig {
  wrapped: WrappedProcess;
  stdin: PassThrough;
  recorded: Observation<Caller>[];
  stdinLog: string;
  servedLog: string;
  output(): string;
  /** Resolves when the output holds `text`. */
  waitFor(text: string, ms: number): Promise<boolean>;
}

function startRig(dir: string, policy: CompiledPolicy): Rig {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const recorded: Observation<Caller>[] = [];
  const stdinLog = join(dir, 'stdin.log');
  const servedLog = join(dir, 'served.log');
  process.env.PEER_STDIN_LOG = stdinLog;
  process.env.PEER_SERVED_LOG = servedLog;
  const wrapped = wrapStdio({
    command: process.execPath,
    args: ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'peers', 'v2-stdio-server.ts'), 'dual'],
    meter: new StdioMeter<Caller>((observation) => recorded.push(observation)),
    caller: CALLER,
    maxLineBytes: MAX_LINE_BYTES,
    onInternalError: (error) => {
      throw error;
    },
    policy: () => policy,
    now: () => NOW,
    stdin,
    stdout,
  });
  delete process.env.PEER_STDIN_LOG;
  delete process.env.PEER_SERVED_LOG;
  let all = '';
  const waiters = new Set<() => void>();
  stdout.on('data', (chunk: Buffer) => {
    all += chunk.toString('utf8');
    for (const wake of waiters) wake();
  });
  const waitFor = (text: string, ms: number) =>
    new Promise<boolean>((resolve) => {
      const check = () => {
        if (!all.includes(text)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(false);
      }, ms);
      waiters.add(check);
      check();
    });
  return { wrapped, stdin, recorded, stdinLog, servedLog, output: () => all, waitFor };
}

const readServed = (path: string): ServedEntry[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ServedEntry);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * serveStdio's opening rule (classifyOpeningMessage in @modelcontextprotocol/server's stdio entry,
 * not exported): a request or notification opens the connection as legacy when it is an
 * `initialize` without a valid modern envelope claim, or carries no envelope claim at all. A valid
 * claim is taken here as `_meta[protocolVersion] === 2026-07-28` (the corpus's envelopes are
 * otherwise whole). A line is read as the SDK's ReadBuffer reads it: one `\r` stripped, JSON.parse,
 * and a line that does not parse skipped. A batch's elements are judged one by one (the SDK takes
 * no batch on stdio; a legacy request inside one is still not for a cut to pass).
 */
function opensLegacy(message: unknown): boolean {
  if (Array.isArray(message)) return message.some(opensLegacy);
  if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false;
  const meta = isRecord(message.params) && isRecord(message.params._meta) ? message.params._meta : undefined;
  const claim = meta !== undefined && VERSION_META_KEY in meta;
  if (message.method === 'initialize') return !(claim && meta[VERSION_META_KEY] === MODERN_VERSION);
  return !claim;
}

function legacyLinesIn(received: string, sentinel: string): string[] {
  return received
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '' && !line.includes(sentinel))
    .filter((line) => {
      try {
        return opensLegacy(JSON.parse(line));
      } catch {
        return false;
      }
    });
}

let nextId = 1;

/** The cut's property for one variant: undefined when it holds, else what broke it. */
async function cutHoldsOnStdio(rig: Rig, variant: StdioVariant, stats: Record<string, number>): Promise<string | undefined> {
  const firstId = nextId;
  nextId += messagesOf(variant);
  const stdinMark = readFileSync(rig.stdinLog).length;
  const servedMark = readServed(rig.servedLog).length;
  const recordedMark = rig.recorded.length;
  for (const piece of renderStdioVariant(variant, firstId, MAX_LINE_BYTES)) {
    rig.stdin.write(piece);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const sentinel = `sentinel-${firstId}`;
  rig.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: sentinel, method: 'server/discover', params: { _meta: MODERN_META } })}\n`);
  if (!(await rig.waitFor(`"${sentinel}"`, 5000))) return `no answer to the sentinel after ${describeStdioVariant(variant)}: the wrapper or the server stalled`;
  const received = readFileSync(rig.stdinLog).subarray(stdinMark).toString('utf8');
  const served = readServed(rig.servedLog).slice(servedMark).filter((entry) => entry.id !== sentinel);
  // A request is counted when its answer passes the wrapper, which may come after the sentinel's.
  for (const entry of served) if (entry.id !== undefined) await rig.waitFor(`"id":${JSON.stringify(entry.id)}`, 3000);
  await new Promise((resolve) => setImmediate(resolve));
  const counted = rig.recorded.slice(recordedMark).filter((o) => o.message.id !== sentinel);
  const path = [...new Set(served.map((entry) => entry.era))].join('+') || 'nothing';
  stats[path] = (stats[path] ?? 0) + 1;
  const facts = [
    `variant: ${describeStdioVariant(variant)}`,
    `server received: ${JSON.stringify(received.slice(0, 300))}`,
    `server served: ${JSON.stringify(served.map((entry) => `${entry.era}:${entry.method}`))}`,
    `wrapper counted: ${JSON.stringify(counted.map((o) => `${o.message.era}:${o.message.method ?? '-'}:${o.outcome}`))}`,
  ].join('\n  ');
  if (served.some((entry) => entry.era === 'legacy')) return `the wrapper let the legacy era past a cut (served on the legacy path)\n  ${facts}`;
  const legacy = legacyLinesIn(received, sentinel);
  if (legacy.length > 0) return `the wrapper let the legacy era past a cut (a line the SDK opens as legacy reached the server)\n  ${facts}`;
  const servedModern = served.filter((entry) => entry.era === 'modern').length;
  const countedModern = counted.filter((o) => o.message.era === 'modern' && o.outcome !== 'blocked').length;
  if (countedModern < servedModern) return `the server served ${servedModern} on its modern path, the wrapper counted ${countedModern} modern and passed\n  ${facts}`;
  return undefined;
}

beforeAll(() => {
  const dimensions = Object.entries(STDIO_CORPUS_DIMENSIONS).map(([name, values]) => `${name}(${values.length})`).join(' ');
  console.log(`stdio cut corpus: ${stdioCorpusSize()} distinct variants over ${dimensions}; ${SETTINGS.runs} per property${SETTINGS.seed === undefined ? '' : `, seed ${SETTINGS.seed}`}; servers: wrapStdio → SDK v2 dual stdio (one process), line bound ${MAX_LINE_BYTES} bytes`);
});

describe('past a deny cut on the legacy era, nothing the v2 dual stdio server read behind wrapStdio is a legacy request', () => {
  let dir: string;
  let rig: Rig | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-stdio-corpus-'));
    rig = startRig(dir, legacyRetired());
    // The server is up, its logs created, once it answers a first sentinel.
    rig.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'sentinel-up', method: 'server/discover', params: { _meta: MODERN_META } })}\n`);
    if (!(await rig.waitFor('"sentinel-up"', 30_000))) throw new Error(`the stdio server did not answer: ${rig.output()}`);
  }, 40_000);
  afterAll(async () => {
    rig?.stdin.end();
    await rig?.wrapped.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  test('against the SDK v2 dual stdio server', async () => {
    const stats: Record<string, number> = {};
    const kinds = new Map<string, { count: number; fault: string }>();
    let sent = 0;
    const started = Date.now();
    try {
      await fc.assert(
        fc.asyncProperty(stdioVariant, async (variant) => {
          sent += 1;
          const fault = await cutHoldsOnStdio(rig!, variant, stats);
          if (fault === undefined) return;
          if (!SETTINGS.survey) throw new Error(fault);
          const key = fault.split('\n')[0]!;
          const known = kinds.get(key);
          if (known === undefined || fault.length < known.fault.length) kinds.set(key, { count: (known?.count ?? 0) + 1, fault });
          else known.count += 1;
        }),
        { numRuns: SETTINGS.runs, ...(SETTINGS.seed === undefined ? {} : { seed: SETTINGS.seed }) },
      );
    } finally {
      console.log(`stdio cut corpus: ${sent} variants through wrapStdio in ${Date.now() - started} ms; the server served ${JSON.stringify(stats)}`);
    }
    if (kinds.size > 0) throw new Error(`${kinds.size} kinds of failure:\n${[...kinds.values()].map(({ count, fault }) => `${count}× ${fault}`).join('\n')}`);
  });
});
