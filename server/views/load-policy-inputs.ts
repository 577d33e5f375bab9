import { DAY_MS } from '../analysis/compute-week-start.js';
import { planClock } from '../analysis/plan-clock.js';
import { pauseEndsAt } from '../analysis/plan-pause.js';
import type { PolicyInputs, PolicyPlanInput } from '../policy/compile-policy.js';
import type { Store } from '../store/store.js';
import { loadGateState } from './load-gate-state.js';
import { scopeOf } from '../analysis/plan-scope.js';

/** How far back the versions a server answered under are read, when none are configured. */
export const SERVED_VERSIONS_DAYS = 30;

const NO_CALLERS: ReadonlySet<string> = new Set();

/**
 * Everything the compiled policy needs from the store: the plans that act, each with its gate judged
 * on stored counts and the callers its block-new date lets through, and the versions still served:
 * the configured list; else those the server named itself (its `server/discover`) with those it
 * answered under in the last 30 days; null when neither says anything.
 */
export async function loadPolicyInputs(
  store: Store,
  now: number,
  configuredVersions: readonly string[] | undefined,
  discoveredVersions?: readonly string[],
): Promise<PolicyInputs> {
  const version = await store.getPolicyVersion();
  const pausedUntil = new Map<number, number>();
  // Not judged by its start: a node whose clock runs behind the one that paused must not refuse meanwhile.
  for (const pause of await store.listPlanPauses({ endedSince: now })) pausedUntil.set(pause.planId, Math.max(pausedUntil.get(pause.planId) ?? 0, pauseEndsAt(pause)));
  const plans: PolicyPlanInput[] = [];
  for (const plan of await store.listPlans()) {
    if (plan.action === 'observe') continue;
    const scope = scopeOf(plan);
    const clock = planClock(plan);
    plans.push({
      id: plan.id,
      name: plan.name,
      scope,
      action: plan.action,
      announceDate: plan.announceDate,
      retireDate: plan.retireDate,
      blockNewCallersFrom: plan.blockNewCallersFrom,
      gate: plan.gate,
      policyUrl: plan.policyUrl,
      brownouts: plan.brownouts,
      exemptions: plan.exemptions,
      cutFrom: (await loadGateState(store, plan, now)).cutFrom,
      knownCallers: clock.blockNewAt === null ? NO_CALLERS : await store.listScopeCallersBefore(scope, clock.blockNewAt),
      pausedUntil: pausedUntil.get(plan.id) ?? null,
    });
  }
  const aliases = new Map((await store.listCallerAliases()).map((row) => [row.alias, row.caller]));
  if (configuredVersions !== undefined) return { version, plans, supportedVersions: configuredVersions, aliases };
  const served = await store.listServedVersions(now - SERVED_VERSIONS_DAYS * DAY_MS);
  const known = [...new Set([...(discoveredVersions ?? []), ...served])];
  return { version, plans, supportedVersions: known.length === 0 && discoveredVersions === undefined ? null : known, supportedVersionsComplete: discoveredVersions !== undefined, aliases };
}
