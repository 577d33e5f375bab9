/**
 * The bridge bench's numbers, from its raw samples: medians over rounds, percentiles over every
 * round's answers pooled, and each comparison taken within a round before its median. No I/O.
 */
import type { AnswerShape } from './legacy-session.js';
import { latencySummary, median } from '../support/percentile.js';
import type { ClosedLoopResult } from '../load/run-closed-loop.js';
import type { OpenLoopResult } from '../load/run-open-loop.js';

/** A: the dual-era server answering directly; B: `serve --bridge` before a modern-only server; C: the sidecar, no bridge, before the dual server. */
export const BRIDGE_SETUPS = ['direct', 'bridge', 'sidecar'] as const;
export type BridgeSetup = (typeof BRIDGE_SETUPS)[number];

/** One setup measured in one round, on a session opened for that round. */
export interface BridgeSample {
  round: number;
  setup: BridgeSetup;
  initializeMs: number;
  open: OpenLoopResult;
  sequential: ClosedLoopResult;
  max: ClosedLoopResult;
  /** User+system CPU per answer over the max-throughput phase (µs); no sidecar on the direct path. */
  sidecarCpuMicros: number | undefined;
  serverCpuMicros: number;
}

/** How a setup answered the legacy client, checked before round 1. */
export interface SetupShapes {
  sessionId: boolean;
  initialize: AnswerShape;
  toolCall: AnswerShape;
}

export interface BridgeSummary {
  setup: BridgeSetup;
  initializeMs: number;
  openP50: number;
  openP99: number;
  /** The lowest and highest p99 of a round: how far the machine moved it. */
  openP99Range: [number, number];
  /** Over every round's answers at once: p99 then rests on more than a handful of answers. */
  pooledOpenP50: number;
  pooledOpenP99: number;
  openServiceP99: number;
  /** How late the generator fired (its own timer lag), inside every open-loop number. */
  sendLagP99: number;
  sequentialP50: number;
  sequentialP99: number;
  sequentialPerSecond: number;
  maxPerSecond: number;
  sidecarCpuMicros: number | undefined;
  serverCpuMicros: number;
  answers: number;
  failures: number;
}

export interface BridgeComparison {
  over: BridgeSetup;
  base: BridgeSetup;
  addedOpenP50: number;
  addedOpenP50ByRound: number[];
  addedOpenP99: number;
  addedOpenP99ByRound: number[];
  addedPooledOpenP50: number;
  addedPooledOpenP99: number;
  addedSequentialP50: number;
  addedSequentialP99: number;
  sequentialRatio: number;
  maxRatio: number;
  /** Whole path (sidecar + server) CPU per answer, difference within a round. */
  addedCpuMicros: number;
}

/** The comparisons asked for: the bridge path over direct, the sidecar hop alone, and what the bridge adds to the hop. */
export const COMPARISONS: readonly (readonly [BridgeSetup, BridgeSetup])[] = [
  ['bridge', 'direct'],
  ['sidecar', 'direct'],
  ['bridge', 'sidecar'],
];

const pathCpu = (s: BridgeSample) => (s.sidecarCpuMicros ?? 0) + s.serverCpuMicros;

function summarize(samples: readonly BridgeSample[], setup: BridgeSetup): BridgeSummary {
  const mine = samples.filter((s) => s.setup === setup);
  const med = (pick: (s: BridgeSample) => number) => median(mine.map(pick));
  const pooled = latencySummary(mine.flatMap((s) => s.open.samples));
  return {
    setup,
    initializeMs: med((s) => s.initializeMs),
    openP50: med((s) => s.open.p50),
    openP99: med((s) => s.open.p99),
    openP99Range: [Math.min(...mine.map((s) => s.open.p99)), Math.max(...mine.map((s) => s.open.p99))],
    pooledOpenP50: pooled.p50,
    pooledOpenP99: pooled.p99,
    openServiceP99: med((s) => s.open.serviceP99),
    sendLagP99: med((s) => s.open.sendLagP99),
    sequentialP50: med((s) => s.sequential.p50),
    sequentialP99: med((s) => s.sequential.p99),
    sequentialPerSecond: med((s) => s.sequential.requestsPerSecond),
    maxPerSecond: med((s) => s.max.requestsPerSecond),
    sidecarCpuMicros: setup === 'direct' ? undefined : med((s) => s.sidecarCpuMicros ?? Number.NaN),
    serverCpuMicros: med((s) => s.serverCpuMicros),
    answers: mine.reduce((sum, s) => sum + s.open.completed + s.sequential.responses + s.max.responses, 0),
    failures: mine.reduce((sum, s) => sum + s.open.failures + s.sequential.failures + s.max.failures, 0),
  };
}

function compare(samples: readonly BridgeSample[], summaries: readonly BridgeSummary[], over: BridgeSetup, base: BridgeSetup): BridgeComparison {
  const rounds = [...new Set(samples.map((s) => s.round))];
  const byRound = (pick: (s: BridgeSample) => number, combine: (a: number, b: number) => number) =>
    rounds.map((round) => {
      const of = (setup: BridgeSetup) => samples.find((s) => s.round === round && s.setup === setup)!;
      return combine(pick(of(over)), pick(of(base)));
    });
  const minus = (a: number, b: number) => a - b;
  const per = (a: number, b: number) => a / b;
  const summaryOf = (setup: BridgeSetup) => summaries.find((s) => s.setup === setup)!;
  const addedOpenP50ByRound = byRound((s) => s.open.p50, minus);
  const addedOpenP99ByRound = byRound((s) => s.open.p99, minus);
  return {
    over,
    base,
    addedOpenP50: median(addedOpenP50ByRound),
    addedOpenP50ByRound,
    addedOpenP99: median(addedOpenP99ByRound),
    addedOpenP99ByRound,
    addedPooledOpenP50: summaryOf(over).pooledOpenP50 - summaryOf(base).pooledOpenP50,
    addedPooledOpenP99: summaryOf(over).pooledOpenP99 - summaryOf(base).pooledOpenP99,
    addedSequentialP50: median(byRound((s) => s.sequential.p50, minus)),
    addedSequentialP99: median(byRound((s) => s.sequential.p99, minus)),
    sequentialRatio: median(byRound((s) => s.sequential.requestsPerSecond, per)),
    maxRatio: median(byRound((s) => s.max.requestsPerSecond, per)),
    addedCpuMicros: median(byRound(pathCpu, minus)),
  };
}

export function summarizeBridgeSamples(samples: readonly BridgeSample[]): { summaries: BridgeSummary[]; comparisons: BridgeComparison[] } {
  const summaries = BRIDGE_SETUPS.map((setup) => summarize(samples, setup));
  return { summaries, comparisons: COMPARISONS.map(([over, base]) => compare(samples, summaries, over, base)) };
}
