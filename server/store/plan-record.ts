import { asc, inArray } from 'drizzle-orm';
import type { Db } from './open-database.js';
import type { ShareBasis } from '../protocol/work-request.js';
import { brownoutsTable, plansTable, type PlanScopeKind } from './schema/index.js';

export interface BrownoutRecord {
  startsAt: number;
  endsAt: number;
  note: string | null;
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
  createdAt: number;
  updatedAt: number;
  archivedAt: number | null;
}

export type PlanRow = typeof plansTable.$inferSelect;

/** Attaches each plan's brownout windows, in start order. */
export function withBrownouts(db: Db, rows: PlanRow[]): PlanRecord[] {
  if (rows.length === 0) return [];
  const windows = db
    .select()
    .from(brownoutsTable)
    .where(inArray(brownoutsTable.planId, rows.map((r) => r.id)))
    .orderBy(asc(brownoutsTable.startsAt))
    .all();
  return rows.map((row) => ({
    ...row,
    brownouts: windows.filter((w) => w.planId === row.id).map(({ startsAt, endsAt, note }) => ({ startsAt, endsAt, note })),
  }));
}

/** Replaces a plan's brownout windows with the given ones. */
export function replaceBrownouts(db: Db, planId: number, brownouts: readonly BrownoutRecord[]): void {
  db.delete(brownoutsTable).where(inArray(brownoutsTable.planId, [planId])).run();
  for (const window of brownouts) db.insert(brownoutsTable).values({ planId, ...window }).run();
}
