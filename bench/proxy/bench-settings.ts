export interface BenchSettings {
  rounds: number;
  connections: number;
  /** Closed-loop load on every setup and answer shape once, before round 1. */
  initialWarmupSeconds: number;
  /** Closed-loop load right before each measurement. */
  warmupSeconds: number;
  closedSeconds: number;
  /** Fixed offered load of the open-loop phase, requests per second. */
  openRate: number;
  openSeconds: number;
  /**
   * The CPU ratio's own phase, after the rounds: this many pairs per answer shape, bare proxy and
   * sidecar back to back for cpuPairSeconds each. The neighbours' load drifts over seconds, so short
   * runs side by side see the same machine, and the median over many pairs shrugs off a bad one.
   */
  cpuPairs: number;
  cpuPairSeconds: number;
  /** Run both proxies under --cpu-prof and print their hot spots (numbers are then not recorded). */
  cpuProfile: boolean;
  /** Append the results to bench/RESULTS.md. */
  record: boolean;
}

export function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

/**
 * Defaults sized to finish in about four minutes on the 2-core machine; the environment can
 * shorten them for a smoke run (BENCH_ROUNDS=1 BENCH_CLOSED_SECONDS=1 …), which is then not
 * recorded unless BENCH_RECORD=1 says so.
 */
export function readBenchSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const overridden = ['BENCH_ROUNDS', 'BENCH_CONNECTIONS', 'BENCH_INITIAL_WARMUP_SECONDS', 'BENCH_WARMUP_SECONDS', 'BENCH_CLOSED_SECONDS', 'BENCH_OPEN_RATE', 'BENCH_OPEN_SECONDS', 'BENCH_CPU_PAIRS', 'BENCH_CPU_PAIR_SECONDS']
    .some((name) => env[name] !== undefined && env[name] !== '');
  const cpuProfile = env.BENCH_CPU_PROFILE === '1';
  return {
    rounds: Math.round(numberFrom(env, 'BENCH_ROUNDS', 3)),
    connections: Math.round(numberFrom(env, 'BENCH_CONNECTIONS', 32)),
    initialWarmupSeconds: numberFrom(env, 'BENCH_INITIAL_WARMUP_SECONDS', 3),
    warmupSeconds: numberFrom(env, 'BENCH_WARMUP_SECONDS', 1),
    closedSeconds: numberFrom(env, 'BENCH_CLOSED_SECONDS', 5),
    openRate: numberFrom(env, 'BENCH_OPEN_RATE', 500),
    openSeconds: numberFrom(env, 'BENCH_OPEN_SECONDS', 5),
    cpuPairs: Math.round(numberFrom(env, 'BENCH_CPU_PAIRS', 16)),
    cpuPairSeconds: numberFrom(env, 'BENCH_CPU_PAIR_SECONDS', 1.5),
    cpuProfile,
    record: env.BENCH_RECORD === '1' || (env.BENCH_RECORD !== '0' && !overridden && !cpuProfile),
  };
}
