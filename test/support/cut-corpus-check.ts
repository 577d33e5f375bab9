/**
 * The differential property of a cut, for any server with its own log of what it served: each
 * variant of the corpus (cut-corpus.ts) is sent as raw bytes through the real sidecar (or a
 * control) to a real server, and what the server says it served is held against what the sidecar
 * counted. Past a deny cut on the legacy era (`cutHolds`), a message the server served on its
 * legacy path is a bypass, and one it served on its modern path must be counted modern. Without a
 * cut (`countsHold`), every served message must be counted in the era it was served in, the one
 * documented counting rule aside. The JS SDK suite (test/integration/cut-corpus-property.test.ts)
 * and the Python SDK one (test/interop/python-sdk-cut-corpus.test.ts) both run it.
 */
import fc from 'fast-check';
import { carriesEnvelope, CORPUS_DIMENSIONS, corpusSize, cutVariant, describeVariant, renderVariant, type CutVariant } from './cut-corpus.js';
import { rawExchange, type RawAnswer } from './raw-exchange.js';
import type { ServedEntry } from './served-log.js';
import type { TestService } from './start-test-service.js';

/**
 * What a server served after a mark, in the shape of served-log.ts: a `ServedLog` itself, or an
 * adapter over a server's own log (the Python peer's, say).
 */
export interface ServedSource {
  mark(): number;
  since(mark: number): ServedEntry[];
}

/** Where variants are sent and how what they did is read. */
export interface Target {
  name: string;
  /** Origin of the sidecar (or of the control) the variants are sent to. */
  origin: string;
  served: ServedSource;
  /** The counts by era so far, every request completed before the call included. */
  totals(): Promise<Record<string, number>>;
  liveSessionId?: string;
  /** The counts after the last variant sent. */
  last?: Record<string, number>;
  /** How many variants the server served on each path (or not at all): what the property had to judge. */
  stats?: Record<string, number>;
}

export interface Outcome {
  variant: CutVariant;
  before: Record<string, number>;
  answer: RawAnswer;
  served: ServedEntry[];
  counted: Record<string, number>;
}

/** The property for one variant: undefined when it holds, else what broke it. */
export type Holds = (target: Target, variant: CutVariant) => Promise<string | undefined>;

export interface CorpusSettings {
  /** Variants per property. */
  runs: number;
  /** Replays a run. */
  seed?: number;
  /** Reports every kind of failure rather than the first (see checkCorpus). */
  survey: boolean;
}

/**
 * The settings a suite runs with: CUT_CORPUS_RUNS sets the variants per property (else
 * `defaultRuns`); CUT_CORPUS_SEED replays a run; CUT_CORPUS_SURVEY=1 reports every kind of failure.
 */
export function corpusSettings(defaultRuns: number, env: NodeJS.ProcessEnv = process.env): CorpusSettings {
  return {
    runs: Number(env.CUT_CORPUS_RUNS ?? defaultRuns),
    ...(env.CUT_CORPUS_SEED === undefined ? {} : { seed: Number(env.CUT_CORPUS_SEED) }),
    survey: env.CUT_CORPUS_SURVEY !== undefined,
  };
}

/** One line naming the corpus, how much of it each property draws, and the servers it goes to. */
export function describeCorpus(settings: CorpusSettings, servers: readonly string[]): string {
  const dimensions = Object.entries(CORPUS_DIMENSIONS).map(([name, values]) => `${name}(${values.length})`).join(' ');
  return `cut corpus: ${corpusSize().toExponential(2)} distinct variants over ${dimensions}; ${settings.runs} per property${settings.seed === undefined ? '' : `, seed ${settings.seed}`}; servers: ${servers.join(', ')}`;
}

let nextId = 1;

function delta(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [era, count] of Object.entries(after)) if (count !== (before[era] ?? 0)) out[era] = count - (before[era] ?? 0);
  return out;
}

export async function send(target: Target, variant: CutVariant): Promise<Outcome> {
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

export function report(target: Target, outcome: Outcome, fault: string): string {
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
export function countsMatchServed(target: Target, outcome: Outcome): string | undefined {
  const served = servedByEra(outcome.served);
  const eras = Object.keys(served);
  if (eras.length === 0) return undefined;
  for (const era of eras) if ((outcome.counted[era] ?? 0) < served[era]!) return report(target, outcome, `the server served ${served[era]} on its ${era} path, the sidecar counted ${outcome.counted[era] ?? 0} there`);
  const elsewhere = Object.keys(outcome.counted).filter((era) => !eras.includes(era));
  return elsewhere.length > 0 ? report(target, outcome, `the sidecar counted ${elsewhere.join(', ')} for what the server served on its ${eras.join(', ')} path`) : undefined;
}

/** The cut's property for one variant: undefined when it holds, else what broke it. */
export async function cutHolds(target: Target, variant: CutVariant): Promise<string | undefined> {
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
export async function countsHold(target: Target, variant: CutVariant): Promise<string | undefined> {
  const outcome = await send(target, variant);
  const fault = countsMatchServed(target, outcome);
  if (fault === undefined || !carriesEnvelope(variant)) return fault;
  const served = servedByEra(outcome.served);
  const byBody = Object.keys(served).every((era) => era === 'legacy') && Object.keys(outcome.counted).every((era) => era === 'modern' || era === 'legacy');
  return byBody && (outcome.counted.modern ?? 0) + (outcome.counted.legacy ?? 0) >= served.legacy! ? undefined : fault;
}

/**
 * Runs the property over the corpus; a failure names the shrunk variant and what the server did
 * with it. With `survey` set it does not stop at the first failure: it runs the whole corpus,
 * prints each kind of failure once (its simplest variant), and fails with their number.
 */
export async function checkCorpus(target: Target, holds: Holds, numRuns: number, options: { seed?: number | undefined; survey: boolean }): Promise<void> {
  let sent = 0;
  const started = Date.now();
  const kinds = new Map<string, { count: number; fault: string; size: number }>();
  try {
    await fc.assert(
      fc.asyncProperty(cutVariant, async (variant) => {
        sent += 1;
        const fault = await holds(target, variant);
        if (fault === undefined) return;
        if (!options.survey) throw new Error(fault);
        // A kind of failure: what broke, what the server served and what was counted.
        const lines = fault.split('\n');
        const key = [lines[0], lines[2], lines[3], lines[4]?.slice(0, 14)].join('|');
        const size = describeVariant(variant).length;
        const known = kinds.get(key);
        if (known === undefined || size < known.size) kinds.set(key, { count: (known?.count ?? 0) + 1, fault, size });
        else known.count += 1;
      }),
      { numRuns, ...(options.seed === undefined ? {} : { seed: options.seed }) },
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

/** Opens a legacy session through the sidecar with a plain 2025-11-25 `initialize`, and returns its id. */
export async function openLegacySession(service: TestService): Promise<string> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'corpus', version: '1' } } });
  const host = new URL(service.sidecarUrl).host;
  const head = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  const answer = await rawExchange(service.sidecarUrl, Buffer.from(head + body));
  const id = answer.headers.find(([name]) => name.toLowerCase() === 'mcp-session-id')?.[1];
  if (answer.status !== 200 || id === undefined) throw new Error(`no legacy session: ${answer.status} ${answer.body.toString()}`);
  return id;
}
