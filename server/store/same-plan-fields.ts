import type { DeclaredPlanFields } from './records/declared-plan.js';
import type { PlanRecord } from './records/plan-record.js';

function canonical(plan: DeclaredPlanFields): string {
  // Order in the file is not a change: windows and exemptions are compared as sets.
  const brownouts = plan.brownouts.map((b) => [b.startsAt, b.endsAt, b.note ?? null] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1] || String(a[2]).localeCompare(String(b[2])));
  const exemptions = plan.exemptions.map((e) => [e.integration, e.until, e.note ?? null] as const).sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  return JSON.stringify([
    plan.name,
    plan.scopeKind,
    plan.scopeValue,
    plan.announceDate,
    plan.retireDate,
    plan.targetShare,
    plan.basis,
    plan.policyUrl,
    plan.action,
    plan.blockNewCallersFrom,
    plan.quietDays,
    plan.gate === null ? null : [plan.gate.backstopDate, plan.gate.maxShare],
    brownouts,
    exemptions,
    [...(plan.noticeDays ?? [])].sort((a, b) => b - a),
  ]);
}

/** Whether a stored plan already has every field a declaration sets. */
export function samePlanFields(stored: PlanRecord, declared: DeclaredPlanFields): boolean {
  return canonical(stored) === canonical(declared);
}
