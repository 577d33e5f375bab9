export interface SoakSettings {
  fuzzRequests: number;
  fuzzConcurrency: number;
  /** The fuzzed sidecar's maxBodyBytes: small, so bodies over it are cheap to send. */
  fuzzMaxBodyBytes: number;
  identities: number;
  crashRuns: number;
  /** Requests per second of the steady traffic the crash runs kill the sidecar under. */
  crashRate: number;
  seed: number;
  record: boolean;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

const SIZES = ['SOAK_FUZZ_REQUESTS', 'SOAK_FUZZ_CONCURRENCY', 'SOAK_IDENTITIES', 'SOAK_CRASH_RUNS', 'SOAK_CRASH_RATE'];

/**
 * Defaults sized to finish in about three minutes on the 2-core machine. Smaller runs
 * (SOAK_FUZZ_REQUESTS=1000 SOAK_IDENTITIES=5000 …) are not recorded unless SOAK_RECORD=1.
 */
export function readSoakSettings(env: NodeJS.ProcessEnv): SoakSettings {
  const overridden = SIZES.some((name) => env[name] !== undefined && env[name] !== '');
  return {
    fuzzRequests: numberFrom(env, 'SOAK_FUZZ_REQUESTS', 20_000),
    fuzzConcurrency: numberFrom(env, 'SOAK_FUZZ_CONCURRENCY', 16),
    fuzzMaxBodyBytes: 64 * 1024,
    identities: numberFrom(env, 'SOAK_IDENTITIES', 100_000),
    crashRuns: numberFrom(env, 'SOAK_CRASH_RUNS', 5),
    crashRate: numberFrom(env, 'SOAK_CRASH_RATE', 200),
    seed: numberFrom(env, 'SOAK_SEED', Date.now() % 1_000_000_007),
    record: env.SOAK_RECORD === '1' || (env.SOAK_RECORD !== '0' && !overridden),
  };
}
