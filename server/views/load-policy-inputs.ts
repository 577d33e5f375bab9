import { DAY_MS } from '../analysis/compute-week-start.js';
import { planClock } from '../analysis/plan-clock.js';
import type { PolicyInputs, PolicyPlanInput } from '../policy/compile-policy.js';
import { listScopeCallersBefore } from '../store/sqlite/list-caller-usage.js';
import { listPlans } from '../store/sqlite/list-plans.js';
import { listServedVersions } from '../store/sqlite/list-served-versions.js';
import type { Db } from '../store/sqlite/open-database.js';
import { getPolicyVersion } from '../store/sqlite/policy-version.js';
import { loadGateState } from './load-gate-state.js';
import { scopeOf } from './load-plan-views.js';

/** How far back the versions a server answered under are read, when none are configured. */
export const SERVED_VERSIONS_DAYS = 30;

const NO_CALLERS: ReadonlySet<string> = new Set();

/**
 * Everything the compiled policy needs from the store: the plans that act, each with its gate judged
 * on stored counts and the callers its block-new date lets through, and the versions still served
 * (the configured list, else those the server answered under in the last 30 days).
 */
export function loadPolicyInputs(db: Db, now: number, configuredVersions: readonly string[] | undefined): PolicyInputs {
  const version = getPolicyVersion(db);
  const plans: PolicyPlanInput[] = [];
  for (const plan of listPlans(db)) {
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
      cutFrom: loadGateState(db, plan, now).cutFrom,
      knownCallers: clock.blockNewAt === null ? NO_CALLERS : listScopeCallersBefore(db, scope, clock.blockNewAt),
    });
  }
  const supportedVersions = configuredVersions ?? listServedVersions(db, now - SERVED_VERSIONS_DAYS * DAY_MS);
  return { version, plans, supportedVersions };
}
