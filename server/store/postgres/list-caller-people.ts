import { callerOf } from '../caller-of.js';
import { and, eq, gte, lt, notInArray } from 'drizzle-orm';
import type { CallerPeople, CallerPeopleDay } from '../records/caller-people.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import { peopleCounts, peopleInScope } from '../people-columns.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { callerPeopleDayTable } from './schema/index.js';

type Span = { from: number; to: number };
type Scope = { kind: PlanScopeKind; value: string };

function within(span: Span, scope: Scope | undefined, excluding: readonly string[] = []) {
  const t = callerPeopleDayTable;
  return and(gte(t.day, span.from), lt(t.day, span.to), scope === undefined ? undefined : peopleInScope(t, scope), excluding.length === 0 ? undefined : notInArray(callerOf(t.integration), [...excluding]));
}

function counts() {
  const { legacy, modern, total } = peopleCounts(callerPeopleDayTable);
  return { legacy: legacy.mapWith(Number), modern: modern.mapWith(Number), total: total.mapWith(Number) };
}

/** Each caller's distinct people on the days starting in [from, to), on a scope's path when one is given. */
export async function listCallerPeople(db: PgDb, span: Span, scope?: Scope): Promise<CallerPeople[]> {
  const t = callerPeopleDayTable;
  return db.select({ integration: callerOf(t.integration), ...counts() }).from(t).where(within(span, scope)).groupBy(callerOf(t.integration)).orderBy(binaryOrder(callerOf(t.integration)));
}

/** Distinct people over every caller (but those excluded) on those days: one person behind two callers counts once. */
export async function countPeople(db: PgDb, span: Span, scope?: Scope, excluding?: readonly string[]): Promise<Omit<CallerPeople, 'integration'>> {
  const [row] = await db.select(counts()).from(callerPeopleDayTable).where(within(span, scope, excluding));
  return row ?? { legacy: 0, modern: 0, total: 0 };
}

/** One caller's distinct people per UTC day in [from, to), days without any left out. */
export async function listCallerPeopleDays(db: PgDb, integration: string, span: Span): Promise<CallerPeopleDay[]> {
  const t = callerPeopleDayTable;
  return db
    .select({ day: t.day, ...counts() })
    .from(t)
    .where(and(eq(callerOf(t.integration), integration), within(span, undefined)))
    .groupBy(t.day)
    .orderBy(t.day);
}
