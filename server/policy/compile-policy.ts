/**
 * Compiles stored plans, with what the store says about their callers, into the decision table the
 * hot path reads. Pure: the caller loads the inputs and says when.
 */
import { exemptionEndsAt, planClock } from '../analysis/plan-clock.js';
import type { PlanScope } from '../analysis/plan-scope.js';
import { scopeCarriesModern } from '../protocol/modern-carriers.js';
import { isLegacyVersion, LATEST_LEGACY_VERSION } from '../protocol/versions.js';
import { CompiledPolicy, type CompiledPlan, type PolicyAction } from './compiled-policy.js';
import { announceHeaders } from './announce-headers.js';

export interface PolicyPlanInput {
  id: number;
  name: string;
  scope: PlanScope;
  action: PolicyAction;
  announceDate: string;
  retireDate: string;
  blockNewCallersFrom: string | null;
  gate: { backstopDate: string } | null;
  policyUrl: string | null;
  brownouts: readonly { startsAt: number; endsAt: number }[];
  exemptions: readonly { integration: string; until: string }[];
  /** When the cut starts, as the plan's gate judges it now (see computeGateState). */
  cutFrom: number;
  /** Callers with served work in scope before the block-new date. */
  knownCallers: ReadonlySet<string>;
  /** When the plan's pause in force ends; null or absent when it is not paused. */
  pausedUntil?: number | null;
}

export interface PolicyInputs {
  version: number;
  plans: readonly PolicyPlanInput[];
  /** Versions the server serves, before any plan retires some of them; null when not known. */
  supportedVersions: readonly string[] | null;
  /**
   * False when the list is only what traffic showed (the server never named its versions): then a
   * plan that leaves none of them cannot say that nothing else is served, only that it does not know.
   */
  supportedVersionsComplete?: boolean;
  /** Names joined into another caller → that caller: a request is decided as its caller's. */
  aliases?: ReadonlyMap<string, string>;
}

/** What a plan retires, in the words a refusal uses. */
export function retiringWords(scope: PlanScope): string {
  switch (scope.kind) {
    case 'era':
      return `the legacy MCP protocol era (the initialize handshake, ${LATEST_LEGACY_VERSION} and earlier)`;
    case 'transport':
      return scope.value === 'http+sse' ? 'the HTTP+SSE transport' : `the ${scope.value} transport`;
    case 'version':
      return `MCP protocol version ${scope.value}`;
  }
}

/**
 * True when a plan that cuts this scope stops serving the version. A transport plan stops the
 * modern versions when it cuts a transport that carries them (Streamable HTTP, stdio): no other
 * transport does, so a refusal must not name them; on any other transport it stops none.
 */
function retiresVersion(scope: PlanScope, version: string): boolean {
  switch (scope.kind) {
    case 'era':
      return isLegacyVersion(version);
    case 'transport':
      return scopeCarriesModern(scope) && !isLegacyVersion(version);
    case 'version':
      return version === scope.value;
  }
}

function compilePlan(plan: PolicyPlanInput, supported: readonly string[] | null, complete: boolean): CompiledPlan {
  const clock = planClock(plan);
  const left = supported === null ? null : supported.filter((version) => !retiresVersion(plan.scope, version));
  return {
    id: plan.id,
    name: plan.name,
    scope: plan.scope,
    action: plan.action,
    announceAt: clock.announceAt,
    cutFrom: plan.cutFrom,
    blockNewAt: clock.blockNewAt,
    knownCallers: plan.knownCallers,
    pausedUntil: plan.pausedUntil ?? 0,
    brownouts: [...plan.brownouts].sort((a, b) => a.startsAt - b.startsAt).map((b) => [b.startsAt, b.endsAt] as const),
    exemptUntil: new Map(plan.exemptions.map((e) => [e.integration, exemptionEndsAt(e.until)])),
    announceHeaders: announceHeaders({ announceAt: clock.announceAt, retireAt: clock.retireAt, policyUrl: plan.policyUrl }),
    refusal: {
      retiring: retiringWords(plan.scope),
      planName: plan.name,
      policyUrl: plan.policyUrl,
      supported: left !== null && left.length === 0 && !complete ? null : left,
    },
  };
}

export function compilePolicy(inputs: PolicyInputs, now: number): CompiledPolicy {
  const plans = inputs.plans.filter((plan) => plan.action !== 'observe').map((plan) => compilePlan(plan, inputs.supportedVersions, inputs.supportedVersionsComplete ?? true));
  return new CompiledPolicy(inputs.version, plans, now, inputs.aliases);
}
