/**
 * The weekly digest for the people who read the trend rather than the alerts: the share and its
 * trend, each plan's status and next stage, who moved this week, and the largest remaining callers
 * one can phone. Pure: it judges what the view loader read, week against the week before.
 * Invariant: every number is one the loader read or a ratio of two of them; the callers are judged
 * in classify-digest-callers.ts.
 */
import type { EnforcementEntryKind, EnforcementPhase, EnforcementState } from './compute-enforcement-timeline.js';
import type { PlanStatusKind } from './compute-plan-status.js';
import { classifyDigestCallers, type DigestCallerInput, type DigestCallers, type WeekPeople } from './classify-digest-callers.js';

export interface Span {
  from: number;
  to: number;
}

export interface DigestPlanInput {
  id: number;
  name: string;
  /** "Legacy", "http+sse", "Version 2025-06-18". */
  scopeLabel: string;
  action: 'observe' | 'dryrun' | 'warn' | 'deny';
  phase: EnforcementPhase;
  status: PlanStatusKind;
  statusReason: string;
  currentShare: number | null;
  targetShare: number;
  retireDate: string;
  timeline: readonly { kind: EnforcementEntryKind; at: number; endsAt: number | null; state: EnforcementState; note: string | null }[];
  pause: { reason: string; endsAt: number } | null;
}

export interface DigestShareInput {
  /** Which requests the share counts, and the target its trend is judged against. */
  basis: 'work-requests' | 'all-requests';
  target: number;
  thisWeek: { inScope: number; served: number };
  lastWeek: { inScope: number; served: number };
  trend: { kind: 'not-enough-data' | 'fitted'; slopePerWeek: number | null; significantDecrease: boolean; projectedDate: number | null; reason: string };
}

export interface DigestInputs {
  now: number;
  period: Span;
  previous: Span;
  share: DigestShareInput;
  plans: readonly DigestPlanInput[];
  callers: readonly DigestCallerInput[];
  /** Distinct people served legacy work, over every caller, this week and the week before. */
  legacyPeople: WeekPeople;
  /** How many of the largest remaining identifiable callers to name. */
  top: number;
  links: { dashboard: string; print: string };
}

export interface DigestStage {
  kind: EnforcementEntryKind;
  at: number;
  endsAt: number | null;
  note: string | null;
}

export type DigestPlan = Omit<DigestPlanInput, 'timeline'> & {
  /** Stages refusing (or rehearsing) now: brownouts, block-new, the cut. */
  inForce: DigestStage[];
  /** The first stage still to come, or null when none is. */
  nextStage: DigestStage | null;
};

export interface Digest {
  generatedAt: number;
  period: Span;
  previous: Span;
  share: {
    current: number | null;
    previous: number | null;
    /** current − previous, in share units; null unless both are known. */
    change: number | null;
    basis: DigestShareInput['basis'];
    target: number;
    legacyRequests: number;
    servedRequests: number;
    trend: DigestShareInput['trend'];
  };
  plans: DigestPlan[];
  callers: DigestCallers;
  links: DigestInputs['links'];
}

/** Stages a reader acts on; `announce` and a pause are said elsewhere. */
const STAGE_KINDS: ReadonlySet<EnforcementEntryKind> = new Set(['brownout', 'block-new', 'retire', 'cut', 'backstop']);
const ANNOUNCED_KINDS: ReadonlySet<EnforcementEntryKind> = new Set(['retire']);
/** Stages that last, refusing while they are in force. */
const REFUSING_KINDS: ReadonlySet<EnforcementEntryKind> = new Set(['brownout', 'block-new', 'cut']);

function shareOf(week: { inScope: number; served: number }): number | null {
  return week.served > 0 ? week.inScope / week.served : null;
}

function planOf(plan: DigestPlanInput): DigestPlan {
  const stage = ({ kind, at, endsAt, note }: DigestPlanInput['timeline'][number]): DigestStage => ({ kind, at, endsAt, note });
  // A plan that observes or only announces refuses nothing: its one stage to come is the retire date.
  const kinds = plan.action === 'observe' || plan.action === 'warn' ? ANNOUNCED_KINDS : STAGE_KINDS;
  const stages = plan.timeline.filter((entry) => kinds.has(entry.kind));
  const upcoming = stages.filter((entry) => entry.state === 'upcoming').sort((a, b) => a.at - b.at);
  const { timeline: _timeline, ...rest } = plan;
  // The retire date and the backstop are instants: once passed they are history, not in force.
  const inForce = stages.filter((entry) => entry.state === 'in-force' && REFUSING_KINDS.has(entry.kind));
  return { ...rest, inForce: inForce.map(stage), nextStage: upcoming[0] === undefined ? null : stage(upcoming[0]) };
}

export function composeDigest(input: DigestInputs): Digest {
  const current = shareOf(input.share.thisWeek);
  const previous = shareOf(input.share.lastWeek);
  return {
    generatedAt: input.now,
    period: input.period,
    previous: input.previous,
    share: {
      current,
      previous,
      change: current === null || previous === null ? null : current - previous,
      basis: input.share.basis,
      target: input.share.target,
      legacyRequests: input.share.thisWeek.inScope,
      servedRequests: input.share.thisWeek.served,
      trend: input.share.trend,
    },
    plans: input.plans.map(planOf),
    callers: classifyDigestCallers(input.callers, input.top, input.legacyPeople),
    links: input.links,
  };
}
