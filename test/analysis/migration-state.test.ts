import { describe, expect, test } from 'vitest';
import { MIGRATION_STATES, migrationState } from '../../server/analysis/migration-state.js';

describe('migrationState', () => {
  test.each([
    [{ legacy: 5, modern: 0, everLegacy: true }, 'legacy-only'],
    [{ legacy: 5, modern: 1, everLegacy: true }, 'migrating'],
    [{ legacy: 0, modern: 3, everLegacy: true }, 'moved'],
    [{ legacy: 0, modern: 3, everLegacy: false }, 'modern-only'],
    [{ legacy: 0, modern: 0, everLegacy: true }, null],
    [{ legacy: 0, modern: 0, everLegacy: false }, null],
  ] as const)('%j is %s', (use, state) => {
    expect(migrationState(use)).toBe(state);
  });

  test('every state it answers is in the vocabulary the API filters by', () => {
    for (const legacy of [0, 1]) for (const modern of [0, 1]) for (const everLegacy of [false, true]) {
      const state = migrationState({ legacy, modern, everLegacy });
      if (state !== null) expect(MIGRATION_STATES).toContain(state);
    }
  });
});
