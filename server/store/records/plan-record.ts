import type { ShareBasis } from '../../protocol/work-request.js';

export const PLAN_SCOPE_KINDS = ['era', 'transport', 'version'] as const;
export type PlanScopeKind = (typeof PLAN_SCOPE_KINDS)[number];

/**
 * What a plan does to the traffic in its scope. Each step of a retirement is rehearsed before the next:
 * - observe: counts only (the default);
 * - dryrun: every request the plan would refuse is counted as would-block, and let through;
 * - warn: responses in scope carry Deprecation / Sunset / Link headers from the announce date;
 * - deny: the headers, and refusals in brownouts, of new callers after the block-new date, and from the cut.
 */
export const PLAN_ACTIONS = ['observe', 'dryrun', 'warn', 'deny'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];

export interface BrownoutRecord {
  startsAt: number;
  endsAt: number;
  note: string | null;
}

/** An integration that passes the plan's refusals through the end of `until` (YYYY-MM-DD, UTC). */
export interface ExemptionRecord {
  integration: string;
  until: string;
  note: string | null;
}

/** The usage gate: the cut waits while callers are active or the share is high, until the backstop. */
export interface PlanGate {
  backstopDate: string;
  maxShare: number | null;
}

/** A published retirement of the legacy era, the HTTP+SSE transport, or one protocol version. */
export interface PlanRecord {
  id: number;
  name: string;
  scopeKind: PlanScopeKind;
  scopeValue: string;
  announceDate: string;
  retireDate: string;
  targetShare: number;
  /** Which requests the plan's share counts. */
  basis: ShareBasis;
  policyUrl: string | null;
  brownouts: BrownoutRecord[];
  action: PlanAction;
  blockNewCallersFrom: string | null;
  quietDays: number;
  gate: PlanGate | null;
  exemptions: ExemptionRecord[];
  /** The plan's key in the config file when it is declared there; such a plan is read-only. */
  declaredKey: string | null;
  /** Days before each brownout, the block-new date and the cut on which its active callers are told. */
  noticeDays: number[];
  createdAt: number;
  updatedAt: number;
  archivedAt: number | null;
}

/** What a new plan needs: everything the record holds but its id and bookkeeping times. */
export type PlanInput = Omit<PlanRecord, 'id' | 'createdAt' | 'updatedAt' | 'archivedAt' | 'noticeDays'> & { noticeDays?: number[] };

export type PlanChanges = Partial<PlanInput> & { archived?: boolean };
