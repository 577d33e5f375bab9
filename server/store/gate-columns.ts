import type { PlanGate } from './records/plan-record.js';

/** The plan's gate as its two columns, alike in both dialects' plans tables. */
export function gateColumns(gate: PlanGate | null): { gateBackstopDate: string | null; gateMaxShare: number | null } {
  return { gateBackstopDate: gate?.backstopDate ?? null, gateMaxShare: gate?.maxShare ?? null };
}
