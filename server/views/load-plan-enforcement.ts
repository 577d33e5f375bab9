import { computeEnforcementTimeline, type EnforcementPhase, type EnforcementEntryKind, type EnforcementState } from '../analysis/compute-enforcement-timeline.js';
import type { GateState } from '../analysis/compute-gate-state.js';
import { exemptionEndsAt, planClock } from '../analysis/plan-clock.js';
import { isPauseActive, pauseEndsAt } from '../analysis/plan-pause.js';
import type { PlanPauseRecord } from '../store/records/plan-pause-record.js';
import type { Bucket } from '../lib/time-bucket.js';
import type { Store } from '../store/store.js';
import type { PlanRecord } from '../store/records/plan-record.js';
import { loadGateState } from './load-gate-state.js';
import { scopeOf } from '../analysis/plan-scope.js';

export interface EnforcementWindow {
  kind: EnforcementEntryKind;
  at: number;
  endsAt: number | null;
  state: EnforcementState;
  note: string | null;
  /** Refused and would-block requests in scope over the window up to now; null when it refuses nothing or has not started. */
  counts: { from: number; to: number; refused: number; wouldBlock: number; bucket: Bucket } | null;
  /** The notices to callers about this stage, by how they went; null for an entry no notice is about. */
  notices: { delivered: number; failed: number; sending: number } | null;
}

export interface ExemptionView {
  integration: string;
  until: string;
  note: string | null;
  /** When it lapses: the end of its `until` day. */
  endsAt: number;
  active: boolean;
}

export interface PlanEnforcement {
  action: PlanRecord['action'];
  phase: EnforcementPhase;
  timeline: EnforcementWindow[];
  gate: GateState;
  exemptions: ExemptionView[];
  /** The pause in force at `now`, or null. */
  pause: { id: number; reason: string; startedAt: number; endsAt: number; pausedBy: string } | null;
  /** Every pause the plan had, oldest first. */
  pauses: PlanPauseRecord[];
}

/**
 * A plan's enforcement as the dashboard shows it: its timeline with what each window refused (or, in
 * a dry run, would have), the usage gate in words, the exemptions and the phase in force at `now`.
 */
export async function loadPlanEnforcement(store: Store, plan: PlanRecord, now: number): Promise<PlanEnforcement> {
  const gate = await loadGateState(store, plan, now);
  const scope = scopeOf(plan);
  const pauses = await store.listPlanPauses({ planId: plan.id });
  const notices = await store.listCallerNotices({ planId: plan.id });
  // A notice about the cut is about the retire date it was scheduled for; the cut's own entry moves with the gate.
  const noticesOf = (kind: string, at: number) => {
    const about = notices.filter((n) => n.stageAt === at && n.status !== 'skipped' && (n.stage === kind || (n.stage === 'cut' && kind === 'retire')));
    if (kind !== 'brownout' && kind !== 'block-new' && kind !== 'retire') return null;
    return { delivered: about.filter((n) => n.status === 'delivered').length, failed: about.filter((n) => n.status === 'failed').length, sending: about.filter((n) => n.status === 'sending').length };
  };
  const { entries, phase } = computeEnforcementTimeline({ action: plan.action, clock: planClock(plan), brownouts: plan.brownouts, gate, pauses }, now);
  const timeline = await Promise.all(
    entries.map(async ({ countSpan, ...entry }) => ({
      ...entry,
      counts: countSpan === null ? null : { ...countSpan, ...(await store.sumScopeRefusals(scope, countSpan, await store.bucketFor(countSpan.from))) },
      notices: noticesOf(entry.kind, entry.at),
    })),
  );
  const exemptions = plan.exemptions.map((e) => ({ ...e, endsAt: exemptionEndsAt(e.until), active: now < exemptionEndsAt(e.until) }));
  const active = pauses.find((p) => isPauseActive(p, now));
  const pause = active === undefined ? null : { id: active.id, reason: active.reason, startedAt: active.startedAt, endsAt: pauseEndsAt(active), pausedBy: active.pausedBy };
  return { action: plan.action, phase, timeline, gate, exemptions, pause, pauses };
}
