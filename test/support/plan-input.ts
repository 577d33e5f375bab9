import type { PlanInput } from '../../server/store/records/plan-record.js';

/** A stored plan retiring the legacy era under `deny`, for tests that write plans through the store; `overrides` changes any field. */
export function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    name: 'Retire legacy',
    scopeKind: 'era',
    scopeValue: 'legacy',
    announceDate: '2026-10-01',
    retireDate: '2027-03-01',
    targetShare: 0.005,
    basis: 'work-requests',
    policyUrl: 'https://example.com/policy',
    brownouts: [],
    action: 'deny',
    blockNewCallersFrom: null,
    quietDays: 30,
    gate: null,
    exemptions: [],
    declaredKey: null,
    ...overrides,
  };
}
