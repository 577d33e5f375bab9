import type { BenchSettings } from './bench-settings.js';
import type { AnswerMode } from '../load/mcp-request.js';
import { median, percentile } from '../support/percentile.js';
import type { ClosedLoopResult } from '../load/run-closed-loop.js';
import type { MicroResult } from '../micro/run-micro-benchmarks.js';
import type { OpenLoopResult } from '../load/run-open-loop.js';

export const SETUPS = ['direct', 'bare', 'sidecar'] as const;
export type SetupName = (typeof SETUPS)[number];

/** One setup measured once: one round, one answer shape. */
export interface RoundSample {
  round: number;
  mode: AnswerMode;
  setup: SetupName;
  closed: ClosedLoopResult;
  open: OpenLoopResult;
  /** CPU the proxy process spent per request during the closed-loop phase (µs); none for direct. */
  proxyCpuMicros: number | undefined;
  /** Of that, main-thread GC pauses per request (µs). */
  proxyGcMicros: number | undefined;
  upstreamCpuMicros: number;
}

/** One pair of the CPU ratio's phase: both proxies' CPU per request, measured back to back. */
export interface CpuPair {
  mode: AnswerMode;
  bareMicros: number;
  sidecarMicros: number;
}

/** Medians over the rounds for one setup and answer shape. */
export interface SetupSummary {
  mode: AnswerMode;
  setup: SetupName;
  requestsPerSecond: number;
  closedP50: number;
  closedP99: number;
  openP50: number;
  openP99: number;
  openServiceP99: number;
  sendLagP99: number;
  proxyCpuMicros: number | undefined;
  proxyGcMicros: number | undefined;
  upstreamCpuMicros: number;
  failures: number;
}

/** The comparisons the targets are stated in, each paired within a round before taking the median. */
export interface ModeRatios {
  mode: AnswerMode;
  sidecarOverBare: number;
  sidecarOverBareByRound: number[];
  /** Bare proxy CPU µs/request ÷ sidecar CPU µs/request, median over the CPU pairs: above 1 when the sidecar is the cheaper of the two. */
  cpuBareOverSidecar: number;
  /** The middle half of the pairs' ratios. */
  cpuBareOverSidecarQuartiles: [number, number];
  cpuPairs: number;
  /** The same ratio from each round's closed loop, for comparison. */
  cpuBareOverSidecarByRound: number[];
  bareOverDirect: number;
  /** Sidecar p99 minus direct p99 at the fixed rate, ms. */
  sidecarAddedP99: number;
  sidecarAddedP99ByRound: number[];
  bareAddedP99: number;
  /** The same at p50, which the machine's noise moves far less than p99. */
  sidecarAddedP50: number;
  bareAddedP50: number;
  /** Direct's own p99 at the fixed rate, per round: the noise floor the added p99 is read against. */
  directP99ByRound: number[];
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
}

export interface BenchReport {
  startedAt: Date;
  elapsedSeconds: number;
  machine: MachineInfo;
  settings: BenchSettings;
  /** The commit measured (see describe-code.ts). */
  code: string;
  autocannonVersion: string;
  summaries: SetupSummary[];
  ratios: ModeRatios[];
  micro: MicroResult[];
  /** The sidecar's own counters at the end of the run: proof that it metered what it passed. */
  sidecarHealth: Record<string, unknown>;
}

function summarize(samples: RoundSample[], mode: AnswerMode, setup: SetupName): SetupSummary {
  const mine = samples.filter((s) => s.mode === mode && s.setup === setup);
  const med = (pick: (s: RoundSample) => number) => median(mine.map(pick));
  return {
    mode,
    setup,
    requestsPerSecond: med((s) => s.closed.requestsPerSecond),
    closedP50: med((s) => s.closed.p50),
    closedP99: med((s) => s.closed.p99),
    openP50: med((s) => s.open.p50),
    openP99: med((s) => s.open.p99),
    openServiceP99: med((s) => s.open.serviceP99),
    sendLagP99: med((s) => s.open.sendLagP99),
    proxyCpuMicros: setup === 'direct' ? undefined : med((s) => s.proxyCpuMicros ?? Number.NaN),
    proxyGcMicros: setup === 'direct' ? undefined : med((s) => s.proxyGcMicros ?? Number.NaN),
    upstreamCpuMicros: med((s) => s.upstreamCpuMicros),
    failures: mine.reduce((sum, s) => sum + s.closed.failures + s.open.failures, 0),
  };
}

function byRound(samples: RoundSample[], mode: AnswerMode, compare: (of: (setup: SetupName) => RoundSample) => number): number[] {
  const rounds = [...new Set(samples.map((s) => s.round))];
  return rounds.map((round) => {
    const of = (setup: SetupName) => samples.find((s) => s.round === round && s.mode === mode && s.setup === setup)!;
    return compare(of);
  });
}

export function summarizeSamples(samples: RoundSample[], modes: readonly AnswerMode[], cpuPairs: readonly CpuPair[]): { summaries: SetupSummary[]; ratios: ModeRatios[] } {
  const summaries = modes.flatMap((mode) => SETUPS.map((setup) => summarize(samples, mode, setup)));
  const ratios = modes.map((mode): ModeRatios => {
    const sidecarOverBareByRound = byRound(samples, mode, (of) => of('sidecar').closed.requestsPerSecond / of('bare').closed.requestsPerSecond);
    const sidecarAddedP99ByRound = byRound(samples, mode, (of) => of('sidecar').open.p99 - of('direct').open.p99);
    const cpuBareOverSidecarByRound = byRound(samples, mode, (of) => (of('bare').proxyCpuMicros ?? Number.NaN) / (of('sidecar').proxyCpuMicros ?? Number.NaN));
    const pairRatios = cpuPairs.filter((p) => p.mode === mode).map((p) => p.bareMicros / p.sidecarMicros).sort((a, b) => a - b);
    return {
      mode,
      sidecarOverBare: median(sidecarOverBareByRound),
      sidecarOverBareByRound,
      cpuBareOverSidecar: median(pairRatios),
      cpuBareOverSidecarQuartiles: [percentile(pairRatios, 25), percentile(pairRatios, 75)],
      cpuPairs: pairRatios.length,
      cpuBareOverSidecarByRound,
      bareOverDirect: median(byRound(samples, mode, (of) => of('bare').closed.requestsPerSecond / of('direct').closed.requestsPerSecond)),
      sidecarAddedP99: median(sidecarAddedP99ByRound),
      sidecarAddedP99ByRound,
      bareAddedP99: median(byRound(samples, mode, (of) => of('bare').open.p99 - of('direct').open.p99)),
      sidecarAddedP50: median(byRound(samples, mode, (of) => of('sidecar').open.p50 - of('direct').open.p50)),
      bareAddedP50: median(byRound(samples, mode, (of) => of('bare').open.p50 - of('direct').open.p50)),
      directP99ByRound: byRound(samples, mode, (of) => of('direct').open.p99),
    };
  });
  return { summaries, ratios };
}
