/**
 * What a retirement plan retires, and which counted requests are shaped like it. Pure.
 * Invariant: the predicate looks only at era, transport and version, never at the outcome, so the
 * same scope selects the served numerator and the refused/failed columns beside it.
 */
import type { Era, Transport } from '../protocol/vocabulary.js';

export type PlanScope =
  | { kind: 'era'; value: 'legacy' }
  | { kind: 'transport'; value: string }
  | { kind: 'version'; value: string };

export interface ScopeShape {
  era: Era;
  transport: Transport;
  version: string;
}

/** A plan's scope as the analysis reads it: an era plan retires the legacy era, whatever its stored value. */
export function scopeOf(plan: { scopeKind: PlanScope['kind']; scopeValue: string }): PlanScope {
  return plan.scopeKind === 'era' ? { kind: 'era', value: 'legacy' } : { kind: plan.scopeKind, value: plan.scopeValue };
}

/** True when a request with this era, transport and version falls inside the plan's scope. */
export function isInScopeShape(scope: PlanScope, shape: ScopeShape): boolean {
  switch (scope.kind) {
    case 'era':
      return shape.era === scope.value;
    case 'transport':
      return shape.transport === scope.value;
    case 'version':
      return shape.version === scope.value;
  }
}

/** A short label for sentences: "Legacy", "http+sse", "Version 2025-06-18". */
export function summarizeScope(scope: PlanScope): string {
  switch (scope.kind) {
    case 'era':
      return 'Legacy';
    case 'transport':
      return scope.value;
    case 'version':
      return `Version ${scope.value}`;
  }
}
