import { and, eq, inArray, notInArray, or, sql, type Column, type SQL } from 'drizzle-orm';
import { DEFAULT_SHARE_BASIS, NEGOTIATION_METHODS, PLUMBING_METHODS, type RequestClass, type ShareBasis } from '../protocol/work-request.js';
import type { PlanScopeKind } from './records/plan-record.js';

/** The traffic columns the predicates read, of either backend's traffic tables: the SQL is the same on both. */
export interface TrafficColumns {
  kind: Column;
  method: Column;
  outcome: Column;
  era: Column;
  transport: Column;
  version: Column;
}

/** The SQL form of classifyRequest in server/protocol/work-request.ts: the client requests a basis counts. */
export function requestsOnBasis(t: TrafficColumns, basis: ShareBasis = DEFAULT_SHARE_BASIS): SQL {
  const request = eq(t.kind, 'request');
  return basis === 'all-requests' ? request : and(request, notInArray(t.method, [...NEGOTIATION_METHODS, ...PLUMBING_METHODS]))!;
}

/**
 * The SQL form of isServed / isLegacyServed in server/protocol/served.ts, for one plan scope,
 * over the requests the basis counts (work requests unless asked otherwise).
 */
export function servedInScope(t: TrafficColumns, scope: { kind: PlanScopeKind; value: string }, basis: ShareBasis = DEFAULT_SHARE_BASIS): SQL {
  const counted = requestsOnBasis(t, basis);
  const served = inArray(t.outcome, ['served', 'served-as-legacy']);
  // Scope values arrive as plain strings (a version is open-ended); compare them as SQL text.
  switch (scope.kind) {
    case 'era':
      // A modern request the legacy path answered (`served-as-legacy`) is legacy work, and only that.
      if (scope.value !== 'legacy') return and(counted, sql`${t.era} = ${scope.value}`, eq(t.outcome, 'served'))!;
      return and(counted, or(eq(t.outcome, 'served-as-legacy'), and(eq(t.era, 'legacy'), eq(t.outcome, 'served'))))!;
    case 'transport':
      return and(counted, sql`${t.transport} = ${scope.value}`, served)!;
    case 'version':
      return and(counted, eq(t.version, scope.value), served)!;
  }
}

/**
 * The SQL form of classifyRequest in server/protocol/work-request.ts, for rows already known to be
 * requests. The method names go in as literals, not parameters: Postgres matches a GROUP BY
 * expression to the selected one by its text, and two sets of numbered parameters never match.
 */
export function requestClassOf(method: Column): SQL<RequestClass> {
  const list = (methods: readonly string[]) => sql.raw(methods.map((m) => `'${m.replaceAll("'", "''")}'`).join(', '));
  return sql<RequestClass>`case when ${method} in (${list(NEGOTIATION_METHODS)}) then 'negotiation' when ${method} in (${list(PLUMBING_METHODS)}) then 'plumbing' else 'work' end`;
}

/** Served requests on a basis (work requests unless asked otherwise), any scope. */
export function servedRequests(t: TrafficColumns, basis: ShareBasis = DEFAULT_SHARE_BASIS): SQL {
  return and(requestsOnBasis(t, basis), inArray(t.outcome, ['served', 'served-as-legacy']))!;
}

/** A request shaped like the scope, served or not: what a refusal is matched on. */
export function inScopeShape(t: TrafficColumns, scope: { kind: PlanScopeKind; value: string }): SQL {
  return scope.kind === 'era' ? sql`${t.era} = ${scope.value}` : scope.kind === 'transport' ? sql`${t.transport} = ${scope.value}` : eq(t.version, scope.value);
}
