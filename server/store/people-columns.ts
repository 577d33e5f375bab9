import { sql, type Column, type SQL } from 'drizzle-orm';
import type { PlanScopeKind } from './records/plan-record.js';

/** The columns of either dialect's `caller_people_day` the people queries read: the SQL is the same on both. */
export interface PeopleColumns {
  day: Column;
  integration: Column;
  era: Column;
  transport: Column;
  version: Column;
  subject: Column;
}

/** A person's row on the path a plan scope names (the era that served the work, its transport or version). */
export function peopleInScope(t: PeopleColumns, scope: { kind: PlanScopeKind; value: string }): SQL {
  const column = scope.kind === 'era' ? t.era : scope.kind === 'transport' ? t.transport : t.version;
  return sql`${column} = ${scope.value}`;
}

/** Distinct people of each era and in all, as one select's columns. */
export function peopleCounts(t: PeopleColumns): { legacy: SQL<number>; modern: SQL<number>; total: SQL<number> } {
  return {
    legacy: sql<number>`count(distinct case when ${t.era} = 'legacy' then ${t.subject} end)`,
    modern: sql<number>`count(distinct case when ${t.era} = 'modern' then ${t.subject} end)`,
    total: sql<number>`count(distinct ${t.subject})`,
  };
}
