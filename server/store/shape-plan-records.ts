import type { BrownoutRecord, ExemptionRecord, PlanRecord } from './records/plan-record.js';

/** A plan as both dialects' plans tables hold it: the record's own fields, with the gate as its two columns. */
export type PlanRow = Omit<PlanRecord, 'gate' | 'brownouts' | 'exemptions'> & { gateBackstopDate: string | null; gateMaxShare: number | null };

/**
 * The plan records of these rows: the gate from its two columns (none without a backstop date), and
 * each plan's brownout windows and exemptions, of the rows given, in the order given.
 */
export function shapePlanRecords(
  rows: readonly PlanRow[],
  windows: readonly (BrownoutRecord & { planId: number })[],
  exemptions: readonly (ExemptionRecord & { planId: number })[],
): PlanRecord[] {
  return rows.map(({ gateBackstopDate, gateMaxShare, ...row }) => ({
    ...row,
    gate: gateBackstopDate === null ? null : { backstopDate: gateBackstopDate, maxShare: gateMaxShare },
    brownouts: windows.filter((w) => w.planId === row.id).map(({ startsAt, endsAt, note }) => ({ startsAt, endsAt, note })),
    exemptions: exemptions.filter((e) => e.planId === row.id).map(({ integration, until, note }) => ({ integration, until, note })),
  }));
}
