import type { Logger } from '../lib/create-logger.js';
import { compilePolicy } from '../policy/compile-policy.js';
import { EMPTY_POLICY, type CompiledPolicy } from '../policy/compiled-policy.js';
import type { Store } from '../store/store.js';
import { loadPolicyInputs } from '../views/load-policy-inputs.js';

export interface PolicyRefresherOptions {
  store: Store | undefined;
  now: () => number;
  /** Versions the server serves, when configured; otherwise those it answered under lately. */
  supportedVersions: readonly string[] | undefined;
  /** Versions the server named itself, when it has (see watch-upstream-versions.ts). */
  discoveredVersions?: () => readonly string[] | undefined;
  /** Called after each rebuild that has a plan doing more than observe: refusals may be given from now. */
  onEnforcing?: () => void;
  logger: Logger;
  /** Longest a compiled policy is used before it is rebuilt (gates and block-new lists move with traffic). */
  maxAgeMs?: number;
  /** How often the stored policy version is checked for a change. */
  checkEveryMs?: number;
}

export interface PolicyHealth {
  /** The stored policy version the table in force was compiled from. */
  version: number;
  compiledAt: string | null;
  /** Plans that do more than observe. */
  enforcingPlans: number;
  /** Plans whose refusals are paused now, with when each pause ends. */
  pausedPlans: { id: number; name: string; until: string }[];
  lastError: string | null;
  /** The versions refusals name as served (before a plan retires some), null when unknown. */
  supportedVersions: string[] | null;
  /** Where they came from: the config, the server's own discover (with served traffic), traffic alone, or nowhere. */
  supportedVersionsFrom: 'config' | 'server' | 'traffic' | 'unknown';
}

export interface PolicyRefresher {
  /** The table in force: read per request. */
  current(): CompiledPolicy;
  /** Rebuilds now (after a plan changed through this process's API, say); never rejects. */
  refresh(): Promise<void>;
  health(): PolicyHealth;
  /** Starts the checks; answers when the first table is built (or failed to be). */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Keeps the compiled policy current: rebuilt when the stored policy version moves (checked every
 * second) and at least every 5 s. A rebuild that fails keeps the table in force, so a store fault
 * never changes what traffic meets; the failure is logged and shown on /healthz.
 */
export function createPolicyRefresher(options: PolicyRefresherOptions): PolicyRefresher {
  const maxAgeMs = options.maxAgeMs ?? 5_000;
  let policy: CompiledPolicy = EMPTY_POLICY;
  let compiled = false;
  let lastError: string | null = null;
  let supported: string[] | null = null;
  let supportedFrom: PolicyHealth['supportedVersionsFrom'] = 'unknown';
  let timer: NodeJS.Timeout | undefined;

  const rebuild = async (store: Store) => {
    try {
      const now = options.now();
      const discovered = options.discoveredVersions?.();
      const inputs = await loadPolicyInputs(store, now, options.supportedVersions, discovered);
      const next = compilePolicy(inputs, now);
      supported = inputs.supportedVersions === null ? null : [...inputs.supportedVersions];
      supportedFrom = options.supportedVersions !== undefined ? 'config' : discovered !== undefined ? 'server' : supported === null ? 'unknown' : 'traffic';
      if (next.version !== policy.version || !compiled) options.logger.info({ version: next.version, enforcingPlans: next.plans.length }, 'retirement policy compiled');
      policy = next;
      compiled = true;
      if (next.plans.length > 0) options.onEnforcing?.();
      lastError = null;
    } catch (error) {
      // /healthz answers anyone: it says that and when, never the store's own words (a table, a
      // path, a host or a user name). The log, which only the operator reads, has the error.
      lastError = `the retirement policy could not be rebuilt from the store at ${new Date(options.now()).toISOString()}; the one in force stays (the reason is in the log)`;
      options.logger.warn({ err: error }, 'retirement policy could not be rebuilt; the one in force stays');
    }
  };

  // One store round at a time: a slow store must not pile up rebuilds, and a refresh asked for
  // while one runs (a plan just changed) runs after it, so it reads the change.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: (store: Store) => Promise<void>): Promise<void> => {
    const store = options.store;
    if (store === undefined) return Promise.resolve();
    queue = queue.then(() => work(store));
    return queue;
  };
  const refresh = () => enqueue(rebuild);
  let ticking = false;

  const tick = async () => {
    // A tick while the previous one still waits on the store is skipped, not queued.
    if (ticking || options.store === undefined) return;
    ticking = true;
    try {
      await enqueue(async (store) => {
        let changed = false;
        try {
          changed = (await store.getPolicyVersion()) !== policy.version;
        } catch {
          // The rebuild below reports the store's trouble.
        }
        if (changed || !compiled || options.now() - policy.compiledAt >= maxAgeMs) await rebuild(store);
      });
    } finally {
      ticking = false;
    }
  };

  return {
    current: () => policy,
    refresh,
    health: () => ({
      version: policy.version,
      compiledAt: compiled ? new Date(policy.compiledAt).toISOString() : null,
      enforcingPlans: policy.plans.length,
      pausedPlans: policy.pausedPlans(options.now()).map((plan) => ({ id: plan.id, name: plan.name, until: new Date(plan.pausedUntil).toISOString() })),
      lastError,
      supportedVersions: supported === null ? null : [...supported],
      supportedVersionsFrom: supportedFrom,
    }),
    start() {
      timer = setInterval(() => void tick(), options.checkEveryMs ?? 1_000);
      timer.unref();
      return refresh();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
