import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { carriesEnvelope, CORPUS_DIMENSIONS, corpusSize, cutVariant, describeVariant, renderVariant, type CutVariant } from '../support/cut-corpus.js';
import { dayFromNow as day, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { startHeaderTrustingProxy, type HeaderTrustingProxy } from '../support/header-trusting-proxy.js';
import { rawExchange, type RawAnswer } from '../support/raw-exchange.js';
import { ServedLog, type ServedEntry } from '../support/served-log.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * The differential property of a cut: whatever a real SDK server served, the sidecar judged
 * modern and counted as what the server served. Each variant of the corpus (test/support/cut-corpus.ts)
 * is sent as raw bytes through the real sidecar to a real server whose own log (served-log.ts)
 * says which messages it served and on which path. Past a deny cut on the legacy era, a message
 * the server served on its legacy path is a bypass; one it served on its modern path must be
 * counted modern. Without a cut, every served message must be counted in the era it was served in.
 * A sidecar that judges on headers it does not pass on must be caught (the negative control).
 *
 * CUT_CORPUS_RUNS sets the variants per property (default below); CUT_CORPUS_SEED replays a run;
 * CUT_CORPUS_SURVEY=1 reports every kind of failure rather than the first (see checkCorpus).
 */
const RUNS = Number(process.env.CUT_CORPUS_RUNS ?? 500);
const SURVEY = process.env.CUT_CORPUS_SURVEY !== undefined;
const SEED = process.env.CUT_CORPUS_SEED === undefined ? undefined : Number(process.env.CUT_CORPUS_SEED);
/** The control runs on a fixed seed, so that it finds (or misses) the same counterexample every time. */
const CONTROL_RUNS = 600;
const CONTROL_SEED = 20261207;
const SUPPORTED = { supportedVersions: ['2026-07-28', '2025-11-25'] };
const SERVERS = ['v1-session', 'v2-dual', 'v2-modern'] as const;
type ServerName = (typeof SERVERS)[number];

/** Where variants are sent and how what they did is read. */
interface Target {
  name: string;
  /** Origin of the sidecar (or of the control) the variants are sent to. */
  origin: string;
  served: ServedLog;
  /** The counts by era so far, every request completed before the call included. */
  totals(): Promise<Record<string, number>>;
  liveSessionId?: string;
  /** The counts after the last variant sent. */
  last?: Record<string, number>;
  /** How many variants the server served on each path (or not at all): what the property had to judge. */
  stats?: Record<string, number>;
}

interface Outcome {
  variant: CutVariant;
  before: Record<string, number>;
  answer: RawAnswer;
  served: ServedEntry[];
  counted: Record<string, number>;
}

let nextId = 1;

function delta(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [era, count] of Object.entries(after)) if (count !== (before[era] ?? 0)) out[era] = count - (before[era] ?? 0);
  return out;
}

async function send(target: Target, variant: CutVariant): Promise<Outcome> {
  const firstId = nextId;
  nextId += Math.max(1, variant.batch);
  const rendered = renderVariant(variant, { host: new URL(target.origin).host, firstId, ...(target.liveSessionId === undefined ? {} : { liveSessionId: target.liveSessionId }) });
  const mark = target.served.mark();
  const before = target.last ?? (await target.totals());
  const t0 = Date.now();
  const answer = await rawExchange(target.origin, rendered.bytes);
  if (process.env.CUT_CORPUS_TIMING) console.log(`${Date.now() - t0} ms ${answer.status} ${describeVariant(variant)}`);
  // Only these requests move the counts: what they stand at now is where the next one starts.
  target.last = await target.totals();
  const served = target.served.since(mark);
  const path = [...new Set(served.map((entry) => entry.era))].join('+') || 'nothing';
  target.stats ??= {};
  target.stats[path] = (target.stats[path] ?? 0) + 1;
  return { variant, before, answer, served, counted: delta(target.last, before) };
}

function servedByEra(served: readonly ServedEntry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of served) out[entry.era] = (out[entry.era] ?? 0) + 1;
  return out;
}

function report(target: Target, outcome: Outcome, fault: string): string {
  const answer = outcome.answer.body.toString('utf8').slice(0, 300).replace(/\s+/g, ' ');
  return [
    `${fault} (${target.name})`,
    `variant: ${describeVariant(outcome.variant)}`,
    `server served: ${JSON.stringify(outcome.served.map((entry) => `${entry.era}:${entry.method}`))}`,
    `sidecar counted: ${JSON.stringify(outcome.counted)}`,
    `answer: ${outcome.answer.status} ${answer}`,
  ].join('\n  ');
}

/** Every served message is counted in the era it was served in, and nothing in another era. */
function countsMatchServed(target: Target, outcome: Outcome): string | undefined {
  const served = servedByEra(outcome.served);
  const eras = Object.keys(served);
  if (eras.length === 0) return undefined;
  for (const era of eras) if ((outcome.counted[era] ?? 0) < served[era]!) return report(target, outcome, `the server served ${served[era]} on its ${era} path, the sidecar counted ${outcome.counted[era] ?? 0} there`);
  const elsewhere = Object.keys(outcome.counted).filter((era) => !eras.includes(era));
  return elsewhere.length > 0 ? report(target, outcome, `the sidecar counted ${elsewhere.join(', ')} for what the server served on its ${eras.join(', ')} path`) : undefined;
}

/** The cut's property for one variant: undefined when it holds, else what broke it. */
async function cutHolds(target: Target, variant: CutVariant): Promise<string | undefined> {
  let outcome = await send(target, variant);
  if (outcome.served.some((entry) => entry.era === 'legacy')) return report(target, outcome, 'the sidecar let the legacy era past a cut');
  if (countsMatchServed(target, outcome) === undefined) return undefined;
  // A count lands before the answer ends; read once more before calling it a fault.
  await new Promise((resolve) => setTimeout(resolve, 200));
  target.last = await target.totals();
  outcome = { ...outcome, counted: delta(target.last, outcome.before) };
  return countsMatchServed(target, outcome);
}

/**
 * Without a cut the counts follow the body: a request carrying the modern envelope is counted
 * modern by it (reason modern-meta) wherever a server serves it, as the captured SDK traffic in
 * fixtures/wire-traces labels it (an envelope inside a legacy session, say). That one documented
 * rule aside, every served message is counted in the era it was served in.
 */
async function countsHold(target: Target, variant: CutVariant): Promise<string | undefined> {
  const outcome = await send(target, variant);
  const fault = countsMatchServed(target, outcome);
  if (fault === undefined || !carriesEnvelope(variant)) return fault;
  const served = servedByEra(outcome.served);
  const byBody = Object.keys(served).every((era) => era === 'legacy') && Object.keys(outcome.counted).every((era) => era === 'modern' || era === 'legacy');
  return byBody && (outcome.counted.modern ?? 0) + (outcome.counted.legacy ?? 0) >= served.legacy! ? undefined : fault;
}

/**
 * Runs the property over the corpus; a failure names the shrunk variant and what the server did
 * with it. With CUT_CORPUS_SURVEY set it does not stop at the first failure: it runs the whole
 * corpus, prints each kind of failure once (its simplest variant), and fails with their number.
 */
async function checkCorpus(target: Target, holds: (target: Target, variant: CutVariant) => Promise<string | undefined>, numRuns: number, seed = SEED): Promise<void> {
  let sent = 0;
  const started = Date.now();
  const kinds = new Map<string, { count: number; fault: string; size: number }>();
  try {
    await fc.assert(
      fc.asyncProperty(cutVariant, async (variant) => {
        sent += 1;
        const fault = await holds(target, variant);
        if (fault === undefined) return;
        if (!SURVEY) throw new Error(fault);
        // A kind of failure: what broke, what the server served and what was counted.
        const lines = fault.split('\n');
        const key = [lines[0], lines[2], lines[3], lines[4]?.slice(0, 14)].join('|');
        const size = describeVariant(variant).length;
        const known = kinds.get(key);
        if (known === undefined || size < known.size) kinds.set(key, { count: (known?.count ?? 0) + 1, fault, size });
        else known.count += 1;
      }),
      { numRuns, ...(seed === undefined ? {} : { seed }) },
    );
  } finally {
    console.log(`cut corpus: ${sent} variants through ${target.name} in ${Date.now() - started} ms; the server served ${JSON.stringify(target.stats ?? {})}`);
    target.stats = {};
  }
  if (kinds.size > 0) {
    const found = [...kinds.values()].map(({ count, fault }) => `${count}× ${fault}`);
    console.log(`cut corpus survey, ${target.name}:\n${found.join('\n')}`);
    throw new Error(`${kinds.size} kinds of failure through ${target.name}:\n${found.join('\n')}`);
  }
}

async function openLegacySession(service: TestService): Promise<string> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'corpus', version: '1' } } });
  const host = new URL(service.sidecarUrl).host;
  const head = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  const answer = await rawExchange(service.sidecarUrl, Buffer.from(head + body));
  const id = answer.headers.find(([name]) => name.toLowerCase() === 'mcp-session-id')?.[1];
  if (answer.status !== 200 || id === undefined) throw new Error(`no legacy session: ${answer.status} ${answer.body.toString()}`);
  return id;
}

interface Rig {
  peers: Record<ServerName, Peer>;
  logs: Record<ServerName, ServedLog>;
  services: TestService[];
}

async function startPeers(): Promise<Pick<Rig, 'peers' | 'logs'>> {
  const logs = { 'v1-session': new ServedLog(), 'v2-dual': new ServedLog(), 'v2-modern': new ServedLog() };
  const peers = {
    'v1-session': await startV1SessionServer({ served: logs['v1-session'] }),
    'v2-dual': await startV2Server('dual', { served: logs['v2-dual'] }),
    'v2-modern': await startV2Server('modern', { served: logs['v2-modern'] }),
  };
  return { peers, logs };
}

/** The sidecar in front of one server at its endpoint `/mcp`, with a legacy session opened through it. */
async function sidecarTarget(rig: Rig, name: ServerName): Promise<Target> {
  const service = await startTestService(new URL('/mcp', rig.peers[name].origin), { enforcement: SUPPORTED });
  rig.services.push(service);
  const target: Target = { name: `sidecar → SDK ${name}`, origin: new URL(service.sidecarUrl).origin, served: rig.logs[name], totals: () => trafficTotals(service, 'era') };
  if (name === 'v1-session') target.liveSessionId = await openLegacySession(service);
  return target;
}

async function stopRig(rig: Rig | undefined): Promise<void> {
  for (const service of rig?.services ?? []) await service.dispose();
  for (const peer of Object.values(rig?.peers ?? {})) await peer.close();
}

beforeAll(() => {
  const dimensions = Object.entries(CORPUS_DIMENSIONS).map(([name, values]) => `${name}(${values.length})`).join(' ');
  console.log(`cut corpus: ${corpusSize().toExponential(2)} distinct variants over ${dimensions}; ${RUNS} per property${SEED === undefined ? '' : `, seed ${SEED}`}; servers: ${SERVERS.join(', ')}`);
});

describe('past a deny cut on the legacy era, whatever a server served the sidecar judged modern and counted so', () => {
  let rig: Rig | undefined;
  const targets = {} as Record<ServerName, Target>;
  beforeAll(async () => {
    rig = { ...(await startPeers()), services: [] };
    for (const name of SERVERS) targets[name] = await sidecarTarget(rig, name);
    // The sessions are open; now the cut.
    for (const service of rig.services) await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
  });
  afterAll(() => stopRig(rig));

  test.each(SERVERS)('against the SDK %s server', async (name) => {
    await checkCorpus(targets[name], cutHolds, RUNS);
  });
});

describe('without a cut, every message a server served is counted in the era it served it in', () => {
  let rig: Rig | undefined;
  const targets = {} as Record<ServerName, Target>;
  beforeAll(async () => {
    rig = { ...(await startPeers()), services: [] };
    for (const name of SERVERS) targets[name] = await sidecarTarget(rig, name);
  });
  afterAll(() => stopRig(rig));

  test.each(SERVERS)('against the SDK %s server', async (name) => {
    await checkCorpus(targets[name], countsHold, Math.ceil(RUNS / 3));
  });
});

describe('negative control: the property catches a sidecar that judges on headers it does not pass on', () => {
  let peer: Peer | undefined;
  let proxy: HeaderTrustingProxy | undefined;
  const served = new ServedLog();
  beforeAll(async () => {
    peer = await startV2Server('dual', { served });
    proxy = await startHeaderTrustingProxy(new URL('/mcp', peer.origin));
  });
  afterAll(async () => {
    await proxy?.close();
    await peer?.close();
  });

  test('in front of the SDK v2 dual-era server, the corpus finds a legacy request it let past', async () => {
    const target: Target = { name: 'header-trusting control → SDK v2-dual', origin: proxy!.origin, served, totals: async () => ({ ...proxy!.counts }) };
    const failure = await checkCorpus(target, cutHolds, CONTROL_RUNS, CONTROL_SEED).then(
      () => undefined,
      (error: Error) => `${error.message}\n${(error.cause as Error | undefined)?.message ?? ''}`,
    );
    console.log(`negative control: ${failure?.split('\n').slice(0, 12).join('\n') ?? 'no counterexample'}`);
    expect(failure).toContain('the sidecar let the legacy era past a cut');
    expect(failure).toMatch(/connection="[^"]*mcp-protocol-version/i);
  });
});
