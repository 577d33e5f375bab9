import { numberFrom } from '../proxy/bench-settings.js';

export interface BridgeSettings {
  /** Rounds of the three setups; round r runs them in the r-th of the six orders (every order once per six). */
  rounds: number;
  /** Load with maxConnections on every setup before round 1, until this many answers… */
  initialWarmupRequests: number;
  /** …or this long, whichever comes first. */
  initialWarmupSeconds: number;
  /** Sequential load right before each setup's measurements. */
  warmupSeconds: number;
  /** Fixed offered load of the open-loop phase, requests per second. */
  openRate: number;
  openSeconds: number;
  /** One connection, the next request sent when the last answer is complete. */
  sequentialSeconds: number;
  /** Max throughput: this many connections, each as busy as the one of the sequential phase. */
  maxConnections: number;
  maxSeconds: number;
  /** Append the results to bench/RESULTS.md. */
  record: boolean;
}

const KNOBS = {
  rounds: ['BENCH_BRIDGE_ROUNDS', 6],
  // The bridge path got twice as fast over its first ~1500 answers (JIT), the servers sooner.
  initialWarmupRequests: ['BENCH_BRIDGE_INITIAL_WARMUP_REQUESTS', 1500],
  initialWarmupSeconds: ['BENCH_BRIDGE_INITIAL_WARMUP_SECONDS', 10],
  warmupSeconds: ['BENCH_BRIDGE_WARMUP_SECONDS', 0.25],
  // Far below what 200–500 req/s would need: the SDK server spends about a millisecond of CPU per
  // request and the bridge path several (2 shared cores, ~50–150 req/s through the bridge), and an
  // open loop near capacity measures a queue, not the path.
  openRate: ['BENCH_BRIDGE_RATE', 20],
  openSeconds: ['BENCH_BRIDGE_OPEN_SECONDS', 4.5],
  sequentialSeconds: ['BENCH_BRIDGE_SEQUENTIAL_SECONDS', 1.5],
  maxConnections: ['BENCH_BRIDGE_CONNECTIONS', 8],
  maxSeconds: ['BENCH_BRIDGE_MAX_SECONDS', 1],
} as const satisfies Record<Exclude<keyof BridgeSettings, 'record'>, readonly [string, number]>;

/**
 * Defaults sized to finish in about three minutes on the 2-core machine; any BENCH_BRIDGE_* knob
 * makes it a smoke run, not recorded unless BENCH_RECORD=1 (BENCH_RECORD=0 never records).
 */
export function readBridgeSettings(env: NodeJS.ProcessEnv): BridgeSettings {
  const overridden = Object.values(KNOBS).some(([name]) => env[name] !== undefined && env[name] !== '');
  const read = (key: keyof typeof KNOBS) => numberFrom(env, KNOBS[key][0], KNOBS[key][1]);
  return {
    rounds: Math.round(read('rounds')),
    initialWarmupRequests: Math.round(read('initialWarmupRequests')),
    initialWarmupSeconds: read('initialWarmupSeconds'),
    warmupSeconds: read('warmupSeconds'),
    openRate: read('openRate'),
    openSeconds: read('openSeconds'),
    sequentialSeconds: read('sequentialSeconds'),
    maxConnections: Math.round(read('maxConnections')),
    maxSeconds: read('maxSeconds'),
    record: env.BENCH_RECORD === '1' || (env.BENCH_RECORD !== '0' && !overridden),
  };
}
