/**
 * The decision table the hot path reads: plans compiled into plain data, so a request's decision is
 * a few comparisons and set lookups, with no I/O and no await. Pure.
 */
import { isInScopeShape, type PlanScope } from '../analysis/plan-scope.js';
import type { PolicyShape } from '../protocol/policy-shape.js';
import type { RefusalCause, RefusalContext } from '../protocol/policy-refusal.js';

export type PolicyAction = 'observe' | 'dryrun' | 'warn' | 'deny';

export interface CompiledPlan {
  id: number;
  name: string;
  scope: PlanScope;
  action: PolicyAction;
  announceAt: number;
  /** When every non-exempt request in scope is refused: the retire date, or the backstop while the gate holds. */
  cutFrom: number;
  /** From here on callers not in `knownCallers` are refused; null without a block-new date. */
  blockNewAt: number | null;
  knownCallers: ReadonlySet<string>;
  /**
   * Until when its refusals are paused (0: not paused). A paused plan refuses nothing: what it would
   * refuse passes and is counted as would-block, and its announcement headers stay. Judged per
   * request against `now`, so a pause ends at its instant on every node, compiled or not.
   */
  pausedUntil: number;
  /** Brownout windows as [startsAt, endsAt) pairs, in start order. */
  brownouts: readonly (readonly [number, number])[];
  /** Exempt integration → when its exemption lapses. */
  exemptUntil: ReadonlyMap<string, number>;
  /** Deprecation, Sunset and Link, as header name/value pairs in order. */
  announceHeaders: readonly string[];
  /** What a refusal by this plan says, but for its cause. */
  refusal: Omit<RefusalContext, 'cause' | 'brownoutEndsAt'>;
}

export interface PolicyDecision {
  /** The plan that refuses the request, under deny; null when it passes. */
  refusedBy: CompiledPlan | null;
  cause: RefusalCause | null;
  /** For a brownout refusal, when the window ends. */
  brownoutEndsAt: number | undefined;
  /** True when a plan in dry run would refuse it (it passes, and is counted as would-block). */
  wouldBlock: boolean;
  /** Headers to add to the answer: the announcing plan's, or none. */
  headers: readonly string[];
}

/** The decision for everything outside every enforcing plan: shared, never mutated. */
export const PASS: PolicyDecision = Object.freeze({ refusedBy: null, cause: null, brownoutEndsAt: undefined, wouldBlock: false, headers: Object.freeze([]) as readonly string[] });

function brownoutEnd(plan: CompiledPlan, now: number): number | undefined {
  for (const [startsAt, endsAt] of plan.brownouts) {
    if (startsAt > now) return undefined;
    if (now < endsAt) return endsAt;
  }
  return undefined;
}

/**
 * Why the plan would refuse this caller now, or null. Exempt callers are never refused; an
 * unverified one (its token could not be checked in time) is not refused as new.
 */
function refusalCause(plan: CompiledPlan, integration: string, now: number, unverified: boolean): { cause: RefusalCause; brownoutEndsAt?: number } | null {
  const exemptUntil = plan.exemptUntil.get(integration);
  if (exemptUntil !== undefined && now < exemptUntil) return null;
  if (now >= plan.cutFrom) return { cause: 'cut' };
  const endsAt = plan.brownouts.length === 0 ? undefined : brownoutEnd(plan, now);
  if (endsAt !== undefined) return { cause: 'brownout', brownoutEndsAt: endsAt };
  if (plan.blockNewAt !== null && now >= plan.blockNewAt && !unverified && !plan.knownCallers.has(integration)) return { cause: 'block-new' };
  return null;
}

export class CompiledPolicy {
  /** True when some plan does more than observe: otherwise nothing is decided per request at all. */
  readonly enforcing: boolean;

  constructor(
    /** The stored policy version this table was compiled from. */
    readonly version: number,
    /** Plans that do more than observe, in plan order. */
    readonly plans: readonly CompiledPlan[],
    readonly compiledAt: number,
    /** Names joined into another caller → that caller (the operator's joins): empty for most installs. */
    private readonly aliases: ReadonlyMap<string, string> = new Map(),
  ) {
    this.enforcing = plans.length > 0;
  }

  /** The plans whose refusals are paused at `now`. */
  pausedPlans(now: number): CompiledPlan[] {
    return this.plans.filter((plan) => now < plan.pausedUntil);
  }

  /**
   * The decision for one request or stream opening of this shape from this caller at `now`. The
   * first plan that refuses wins; otherwise a dry-run refusal marks it would-block; the first
   * announcing plan in scope lends its headers. `unverified`: the caller's credential could not be
   * checked in time, so whether it is new is not known (see Caller.unverified).
   */
  decide(shape: PolicyShape, counted: string, now: number, unverified = false): PolicyDecision {
    // Exemptions and known callers name callers as joined: a request counted under an alias is its caller's.
    const integration = this.aliases.size === 0 ? counted : (this.aliases.get(counted) ?? counted);
    let wouldBlock = false;
    let headers: readonly string[] | undefined;
    const scopeShape = { era: shape.era, transport: shape.transport, version: shape.version ?? '' };
    for (const plan of this.plans) {
      if (!isInScopeShape(plan.scope, scopeShape)) continue;
      const announcing = (plan.action === 'warn' || plan.action === 'deny') && now >= plan.announceAt;
      if (announcing) headers ??= plan.announceHeaders;
      if (plan.action !== 'deny' && plan.action !== 'dryrun') continue;
      const refusal = refusalCause(plan, integration, now, unverified);
      if (refusal === null) continue;
      if (plan.action === 'dryrun' || now < plan.pausedUntil) {
        wouldBlock = true;
        continue;
      }
      return { refusedBy: plan, cause: refusal.cause, brownoutEndsAt: refusal.brownoutEndsAt, wouldBlock: false, headers: plan.announceHeaders };
    }
    if (!wouldBlock && headers === undefined) return PASS;
    return { refusedBy: null, cause: null, brownoutEndsAt: undefined, wouldBlock, headers: headers ?? PASS.headers };
  }
}

/** No plan enforces anything: the policy before the first compile, and without a store. */
export const EMPTY_POLICY = new CompiledPolicy(0, [], 0);
