import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { TrafficTable } from './schema/index.js';
import type { PlanScopeKind } from './schema/index.js';

/** The SQL form of isServed / isLegacyServed in server/protocol/served.ts, for one plan scope. */
export function servedInScope(t: TrafficTable, scope: { kind: PlanScopeKind; value: string }): SQL {
  const served = inArray(t.outcome, ['served', 'served-as-legacy']);
  switch (scope.kind) {
    case 'era':
      return and(eq(t.kind, 'request'), or(eq(t.outcome, 'served-as-legacy'), and(eq(t.era, scope.value), eq(t.outcome, 'served'))))!;
    case 'transport':
      return and(eq(t.kind, 'request'), eq(t.transport, scope.value), served)!;
    case 'version':
      return and(eq(t.kind, 'request'), eq(t.version, scope.value), served)!;
  }
}

/** Served requests, any scope. */
export function servedRequests(t: TrafficTable): SQL {
  return and(eq(t.kind, 'request'), inArray(t.outcome, ['served', 'served-as-legacy']))!;
}
