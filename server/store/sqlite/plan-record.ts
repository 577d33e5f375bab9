import { asc, inArray } from 'drizzle-orm';
import type { Db } from './open-database.js';
import type { ShareBasis } from '../../protocol/work-request.js';
import { brownoutsTable, planExemptionsTable, plansTable, type PlanAction, type PlanScopeKind } from './schema/index.js';

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

export type PlanRow = typeof plansTable.$inferSelect;

/** Attaches each plan's brownout windows, in start order, and its exemptions. */
export function withBrownouts(db: Db, rows: PlanRow[]): PlanRecord[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const windows = db.select().from(brownoutsTable).where(inArray(brownoutsTable.planId, ids)).orderBy(asc(brownoutsTable.startsAt)).all();
  const exemptions = db.select().from(planExemptionsTable).where(inArray(planExemptionsTable.planId, ids)).orderBy(asc(planExemptionsTable.until), asc(planExemptionsTable.id)).all();
  return rows.map(({ gateBackstopDate, gateMaxShare, ...row }) => ({
    ...row,
    gate: gateBackstopDate === null ? null : { backstopDate: gateBackstopDate, maxShare: gateMaxShare },
    brownouts: windows.filter((w) => w.planId === row.id).map(({ startsAt, endsAt, note }) => ({ startsAt, endsAt, note })),
    exemptions: exemptions.filter((e) => e.planId === row.id).map(({ integration, until, note }) => ({ integration, until, note })),
  }));
}

/** Replaces a plan's brownout windows with the given ones. */
export function replaceBrownouts(db: Db, planId: number, brownouts: readonly BrownoutRecord[]): void {
  db.delete(brownoutsTable).where(inArray(brownoutsTable.planId, [planId])).run();
  for (const window of brownouts) db.insert(brownoutsTable).values({ planId, ...window }).run();
}

/** Replaces a plan's exemptions with the given ones. */
export function replaceExemptions(db: Db, planId: number, exemptions: readonly ExemptionRecord[]): void {
  db.delete(planExemptionsTable).where(inArray(planExemptionsTable.planId, [planId])).run();
  for (const exemption of exemptions) db.insert(planExemptionsTable).values({ planId, ...exemption }).run();
}

/** The plan's gate as its two columns. */
export function gateColumns(gate: PlanGate | null): { gateBackstopDate: string | null; gateMaxShare: number | null } {
  return { gateBackstopDate: gate?.backstopDate ?? null, gateMaxShare: gate?.maxShare ?? null };
}
