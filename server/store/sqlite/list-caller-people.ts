import { callerOf } from '../caller-of.js';
import { and, eq, gte, lt, notInArray, sql } from 'drizzle-orm';
import type { CallerPeople, CallerPeopleDay } from '../records/caller-people.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import { peopleCounts, peopleInScope } from '../people-columns.js';
import type { Db } from './open-database.js';
import { callerPeopleDayTable } from './schema/index.js';

type Span = { from: number; to: number };
type Scope = { kind: PlanScopeKind; value: string };

function within(span: Span, scope: Scope | undefined, excluding: readonly string[] = []) {
  const t = callerPeopleDayTable;
  return and(gte(t.day, span.from), lt(t.day, span.to), scope === undefined ? undefined : peopleInScope(t, scope), excluding.length === 0 ? undefined : notInArray(callerOf(t.integration), [...excluding]));
}

/** Each caller's distinct people on the days starting in [from, to), on a scope's path when one is given. */
export function listCallerPeople(db: Db, span: Span, scope?: Scope): CallerPeople[] {
  const t = callerPeopleDayTable;
  return db
    .select({ integration: callerOf(t.integration), ...peopleCounts(t) })
    .from(t)
    .where(within(span, scope))
    .groupBy(callerOf(t.integration))
    .orderBy(callerOf(t.integration))
    .all();
}

/** Distinct people over every caller (but those excluded) on those days: one person behind two callers counts once. */
export function countPeople(db: Db, span: Span, scope?: Scope, excluding?: readonly string[]): Omit<CallerPeople, 'integration'> {
  const t = callerPeopleDayTable;
  return db.select(peopleCounts(t)).from(t).where(within(span, scope, excluding)).get() ?? { legacy: 0, modern: 0, total: 0 };
}

/** One caller's distinct people per UTC day in [from, to), days without any left out. */
export function listCallerPeopleDays(db: Db, integration: string, span: Span): CallerPeopleDay[] {
  const t = callerPeopleDayTable;
  return db
    .select({ day: t.day, ...peopleCounts(t) })
    .from(t)
    .where(and(eq(callerOf(t.integration), integration), within(span, undefined)))
    .groupBy(t.day)
    .orderBy(sql`${t.day}`)
    .all();
}
