import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { createEraCache } from '../../server/prober/attempt/era-cache.js';
import { probe, probePeers } from '../../server/prober/probe.js';
import type { ProbeOptions } from '../../server/prober/probe-options.js';
import { DISCOVER_RESULT, INITIALIZE_RESULT, TOOLS } from './fakes/fake-http-server.js';
import { FAILING_ITEMS, goodInitializeAnswer } from './fakes/initialize-answers.js';
import type { StdioScript } from './fakes/stdio-fake.js';
import { readWire, removeSpawnCounters, spawnCounterFile, stdioFakePeer, wireLogFile } from './fakes/stdio-peer.js';

// tsx needs a moment to start each fake; the deadlines leave room for that on a loaded machine.
const OPTIONS: ProbeOptions = { attempts: 1, probeTimeoutMs: 8000, initializeTimeoutMs: 8000 };
const SHORT: ProbeOptions = { ...OPTIONS, probeTimeoutMs: 3000, initializeTimeoutMs: 8000 };

const MODERN: StdioScript = { replies: { 'server/discover': { result: DISCOVER_RESULT() }, 'tools/list': { result: TOOLS('echo') } } };
const LEGACY_REPLIES = { initialize: { result: INITIALIZE_RESULT() }, 'tools/list': { result: TOOLS('echo') } } as const;
const V1_LIKE: StdioScript = { replies: { ...LEGACY_REPLIES } };
const SILENT_PRE_INIT: StdioScript = { replies: { 'server/discover': 'silent', ...LEGACY_REPLIES } };
const EXITS_ON_PROBE: StdioScript = { replies: { 'server/discover': 'exit', ...LEGACY_REPLIES } };
const SLOW_START: StdioScript = { ...MODERN, startDelayMs: 7000 };
/** A modern-only server: it refuses initialize with -32022 and names its versions. */
const MODERN_REFUSING_INIT: StdioScript = {
  replies: { ...MODERN.replies, initialize: { error: { code: -32022, message: 'Unsupported protocol version: 2025-11-25', data: { supported: ['2026-07-28'], requested: '2025-11-25' } } } },
};

const sentMethods = (verdict: { sent: { method: string }[] }) => verdict.sent.map((m) => m.method);
const spawns = (file: string) => readFileSync(file, 'utf8').length;

describe('probing over stdio', () => {
  afterAll(removeSpawnCounters);

  test('a modern server, with noise on stdout (non-JSON, foreign ids, null ids, notifications, requests) ignored', async () => {
    const [report] = await probePeers([stdioFakePeer('m', { ...MODERN, noise: true })], OPTIONS);
    expect(report!.verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28', transport: 'stdio', serverInfo: { name: 'fake-modern' } });
    expect(sentMethods(report!.verdict)).toEqual(['server/discover', 'tools/list']);
    expect(report!.tools).toMatchObject({ ok: true, tools: [{ name: 'echo' }] });
  });

  test('-32601 fails closed by default and names allowLegacy', async () => {
    const verdict = await probe(stdioFakePeer('v1', V1_LIKE), OPTIONS);
    expect(verdict).toMatchObject({ era: null, state: 'incompatible', enableWith: 'allowLegacy', evidence: { class: 'AMB', code: 'method-not-found' } });
    expect(sentMethods(verdict)).toEqual(['server/discover']);
  });

  test('-32601 with allowLegacy: one initialize on the same process', async () => {
    const stateFile = spawnCounterFile();
    const verdict = await probe(stdioFakePeer('v1', { stateFile, spawns: [V1_LIKE] }, { allowLegacy: true }), OPTIONS);
    expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25', evidence: { class: 'LEGACY' } });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    expect(spawns(stateFile)).toBe(1);
  });

  test('silence fails closed as unavailable, and the process is killed', async () => {
    const verdict = await probe(stdioFakePeer('quiet', SILENT_PRE_INIT), SHORT);
    expect(verdict).toMatchObject({ era: null, state: 'unavailable', enableWith: 'allowLegacy', evidence: { class: 'AMB', code: 'stdio-timeout' } });
    expect(sentMethods(verdict)).toEqual(['server/discover']);
  });

  test.each([
    ['silence', SILENT_PRE_INIT],
    ['exiting on the probe', EXITS_ON_PROBE],
  ])('%s with allowLegacy: a fresh process gets the one initialize', async (_name, script) => {
    const stateFile = spawnCounterFile();
    const verdict = await probe(stdioFakePeer('old', { stateFile, spawns: [script] }, { allowLegacy: true }), SHORT);
    expect(verdict).toMatchObject({ era: 'legacy', state: 'ready' });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    expect(spawns(stateFile)).toBe(2);
  });

  test('a process exiting on the probe is unavailable by default', async () => {
    expect(await probe(stdioFakePeer('old', EXITS_ON_PROBE), OPTIONS)).toMatchObject({ state: 'unavailable', enableWith: 'allowLegacy', evidence: { code: 'stdio-closed' } });
  });

  test('a slow-starting modern server is never downgraded, and is found modern on retry', async () => {
    const stateFile = spawnCounterFile();
    const waits: number[] = [];
    const verdict = await probe(stdioFakePeer('slow', { stateFile, spawns: [SLOW_START, MODERN] }), { ...SHORT, attempts: 3, sleep: async (ms) => waits.push(ms) });
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready' });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'server/discover', 'tools/list']);
    expect(waits).toHaveLength(1);
  });

  test('allowlisted, a slow-starting modern server refuses the initialize with -32022 and is re-probed modern on a fresh process', async () => {
    const stateFile = spawnCounterFile();
    const verdict = await probe(stdioFakePeer('slow', { stateFile, spawns: [SLOW_START, MODERN_REFUSING_INIT] }, { allowLegacy: true }), SHORT);
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready' });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize', 'server/discover', 'tools/list']);
    expect(spawns(stateFile)).toBe(3);
  });

  test('an allowlisted peer answering -32022 stays modern', async () => {
    const script: StdioScript = { replies: { 'server/discover': { error: { code: -32022, message: 'Unsupported', data: { supported: ['2025-11-25'], requested: '2026-07-28' } } }, ...LEGACY_REPLIES } };
    const verdict = await probe(stdioFakePeer('x', script, { allowLegacy: true }), OPTIONS);
    expect(verdict).toMatchObject({ era: 'modern', state: 'incompatible', evidence: { class: 'MOD-ERR' }, supportedVersions: ['2025-11-25'] });
    expect(sentMethods(verdict)).toEqual(['server/discover']);
  });

  test('an initialize that times out leaves the peer unavailable, with no notifications/initialized', async () => {
    const script: StdioScript = { replies: { initialize: 'silent' } };
    const verdict = await probe(stdioFakePeer('x', script, { allowLegacy: true }), { ...OPTIONS, initializeTimeoutMs: 1000 });
    expect(verdict).toMatchObject({ era: null, state: 'unavailable', evidence: { code: 'initialize-timeout' } });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize']);
  });

  test('an initialize answer with a mismatched id is not an answer', async () => {
    const script: StdioScript = { replies: { initialize: { raw: { ...FAILING_ITEMS.id(goodInitializeAnswer(1)) } } } };
    const verdict = await probe(stdioFakePeer('x', script, { allowLegacy: true }), { ...OPTIONS, initializeTimeoutMs: 1000 });
    expect(verdict).toMatchObject({ state: 'unavailable', evidence: { code: 'initialize-timeout' } });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize']);
  });

  test('an initialize result failing the checklist is never followed by notifications/initialized', async () => {
    const script: StdioScript = { replies: { initialize: { raw: FAILING_ITEMS['protocol-version'](goodInitializeAnswer(1)) } } };
    const verdict = await probe(stdioFakePeer('x', script, { allowLegacy: true }), OPTIONS);
    expect(verdict).toMatchObject({ state: 'unavailable', evidence: { code: 'initialize-protocol-version' } });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize']);
  });

  test('a command that cannot start is unavailable, not an era', async () => {
    const verdict = await probe({ name: 'missing', target: { kind: 'stdio', command: '/nonexistent/mcp-server' }, allowLegacy: true }, OPTIONS);
    expect(verdict).toMatchObject({ era: null, state: 'unavailable', enableWith: null, evidence: { class: 'STOP', code: 'spawn-failed' } });
  });

  test('each probe spawns a fresh process, which is a restart: a cached legacy era is dropped and the process re-probed', async () => {
    const cache = createEraCache();
    const peer = stdioFakePeer('v1', V1_LIKE, { allowLegacy: true });
    expect(await probe(peer, { ...OPTIONS, cache })).toMatchObject({ era: 'legacy', state: 'ready' });
    expect(cache.lookup(peer)).toMatchObject({ era: 'legacy' });
    const again = await probe(peer, { ...OPTIONS, cache });
    expect(sentMethods(again)[0]).toBe('server/discover');
    expect(cache.drops).toEqual([{ peer: 'v1', reason: 'restart' }]);
  });
});

describe('the corrective re-probe over stdio (row 5)', () => {
  afterAll(removeSpawnCounters);

  /** -32022 naming the very version the probe sent: one node of a half-rolled fleet. */
  const REFUSED = { error: { code: -32022, message: 'Unsupported protocol version: 2026-07-28', data: { supported: ['2026-07-28'], requested: '2026-07-28' } } };
  const versionOf = (message: Record<string, any>) => message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];

  test('-32022 listing the version just sent, then a DiscoverResult: exactly two discovers under new ids, then modern; never initialize, even allowlisted', async () => {
    const wireFile = wireLogFile();
    const script: StdioScript = { replies: { ...LEGACY_REPLIES, 'server/discover': [REFUSED, { result: DISCOVER_RESULT() }], 'tools/list': { result: TOOLS('echo') } } };
    const verdict = await probe(stdioFakePeer('rolling', { wireFile, spawns: [script] }, { allowLegacy: true }), OPTIONS);
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28', evidence: { class: 'MOD', code: 'discover-result' } });
    const wire = readWire(wireFile);
    expect(wire.map((m) => m.method)).toEqual(['server/discover', 'server/discover', 'tools/list']);
    expect(wire[0]!.id).not.toEqual(wire[1]!.id);
    expect(wire.slice(0, 2).map(versionOf)).toEqual(['2026-07-28', '2026-07-28']);
    expect(verdict.sent.slice(0, 2).map((m) => m.id)).toEqual(wire.slice(0, 2).map((m) => m.id));
  });

  test('-32022 twice ends the attempt: incompatible, naming the versions listed, after exactly two discovers and no initialize', async () => {
    const wireFile = wireLogFile();
    const script: StdioScript = { replies: { ...LEGACY_REPLIES, 'server/discover': REFUSED } };
    const verdict = await probe(stdioFakePeer('rolling', { wireFile, spawns: [script] }, { allowLegacy: true }), OPTIONS);
    expect(verdict).toMatchObject({ era: 'modern', state: 'incompatible', enableWith: null, supportedVersions: ['2026-07-28'], evidence: { class: 'MOD-ERR', code: 'unsupported-version' } });
    expect(verdict.evidence.detail).toContain('the server lists 2026-07-28');
    const wire = readWire(wireFile);
    expect(wire.map((m) => m.method)).toEqual(['server/discover', 'server/discover']);
    expect(wire[0]!.id).not.toEqual(wire[1]!.id);
  });
});
