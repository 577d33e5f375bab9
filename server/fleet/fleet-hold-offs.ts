/**
 * When each fleet node may be probed again. A node that answered 429/5xx with Retry-After asked
 * not to be called before then; the prober itself never waits in a fleet check (one attempt, so
 * a busy node cannot hold the others), so the fleet keeps the request between checks instead.
 */
import type { ProbeVerdict } from '../prober/verdict.js';

export interface FleetHoldOffs {
  /** Epoch ms before which `node` is not probed; undefined when it may be probed at `now`. */
  heldUntil(node: string, now: number): number | undefined;
  /** Records what a probe of `node` that ended at `at` asked for; any other verdict lifts the hold. */
  note(node: string, verdict: Pick<ProbeVerdict, 'state' | 'retryAfterMs'>, at: number): void;
}

export function createFleetHoldOffs(): FleetHoldOffs {
  const until = new Map<string, number>();
  return {
    heldUntil(node, now) {
      const at = until.get(node);
      return at !== undefined && at > now ? at : undefined;
    },
    note(node, verdict, at) {
      if (verdict.state === 'unavailable' && verdict.retryAfterMs !== null && verdict.retryAfterMs > 0) until.set(node, at + verdict.retryAfterMs);
      else until.delete(node);
    },
  };
}
