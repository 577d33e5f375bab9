import { describe, expect, test } from 'vitest';
import { isInScopeShape, scopeOf, summarizeScope, type PlanScope } from '../../server/analysis/plan-scope.js';

const shape = { era: 'legacy', transport: 'http+sse', version: '2024-11-05' } as const;

describe('isInScopeShape', () => {
  test.each<{ scope: PlanScope; inside: boolean }>([
    { scope: { kind: 'era', value: 'legacy' }, inside: true },
    { scope: { kind: 'transport', value: 'http+sse' }, inside: true },
    { scope: { kind: 'transport', value: 'stdio' }, inside: false },
    { scope: { kind: 'version', value: '2024-11-05' }, inside: true },
    { scope: { kind: 'version', value: '2025-06-18' }, inside: false },
  ])('$scope.kind $scope.value → $inside', ({ scope, inside }) => {
    expect(isInScopeShape(scope, shape)).toBe(inside);
  });

  test('a modern request is outside the legacy era scope', () => {
    expect(isInScopeShape({ kind: 'era', value: 'legacy' }, { ...shape, era: 'modern' })).toBe(false);
  });
});

describe('summarizeScope', () => {
  test('labels each kind of scope for a sentence', () => {
    expect([
      summarizeScope({ kind: 'era', value: 'legacy' }),
      summarizeScope({ kind: 'transport', value: 'http+sse' }),
      summarizeScope({ kind: 'version', value: '2024-11-05' }),
    ]).toEqual(['Legacy', 'http+sse', 'Version 2024-11-05']);
  });
});

describe('scopeOf', () => {
  test('reads a plan\'s stored scope, an era plan always retiring the legacy era', () => {
    expect([
      scopeOf({ scopeKind: 'era', scopeValue: 'legacy' }),
      scopeOf({ scopeKind: 'era', scopeValue: '' }),
      scopeOf({ scopeKind: 'transport', scopeValue: 'http+sse' }),
      scopeOf({ scopeKind: 'version', scopeValue: '2024-11-05' }),
    ]).toEqual<PlanScope[]>([
      { kind: 'era', value: 'legacy' },
      { kind: 'era', value: 'legacy' },
      { kind: 'transport', value: 'http+sse' },
      { kind: 'version', value: '2024-11-05' },
    ]);
  });
});
