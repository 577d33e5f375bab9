import { migrationState, type MigrationState } from '../analysis/migration-state.js';
import type { ScopeCallerRow } from '../store/records/scope-caller-row.js';
import type { Store } from '../store/store.js';

/** What one era served a caller in a span: its version matrix, with first and last days. */
export interface EraUse {
  requests: number;
  /** Starts of the first and last UTC days with served work on this era. */
  firstSeen: number;
  lastSeen: number;
  versions: string[];
  transports: string[];
}

export interface CallerEras {
  legacy: EraUse | null;
  modern: EraUse | null;
}

function eraUseOf(row: ScopeCallerRow): EraUse {
  return { requests: row.requests, firstSeen: row.firstSeen, lastSeen: row.lastSeen, versions: row.versions, transports: row.transports };
}

/**
 * Each caller's served work per era over the day rows starting in [from, to), and from it whether
 * the caller is moving. The integrations table and the dry run both ask it, over their own windows.
 */
export async function loadCallersByEra(store: Store, span: { from: number; to: number }) {
  const [legacy, modern] = await Promise.all([
    store.listScopeCallers({ kind: 'era', value: 'legacy' }, span),
    store.listScopeCallers({ kind: 'era', value: 'modern' }, span),
  ]);
  const legacyByCaller = new Map(legacy.map((row) => [row.integration, eraUseOf(row)]));
  const modernByCaller = new Map(modern.map((row) => [row.integration, eraUseOf(row)]));
  return {
    /** Every caller served work on either era in the span. */
    keys(): string[] {
      return [...new Set([...legacyByCaller.keys(), ...modernByCaller.keys()])];
    },
    eras(key: string): CallerEras {
      return { legacy: legacyByCaller.get(key) ?? null, modern: modernByCaller.get(key) ?? null };
    },
    /** `lastLegacySeen` is the registry's memory of legacy work before the span (null: none). */
    migration(eras: CallerEras, lastLegacySeen: number | null | undefined): MigrationState | null {
      return migrationState({ legacy: eras.legacy?.requests ?? 0, modern: eras.modern?.requests ?? 0, everLegacy: (lastLegacySeen ?? null) !== null || eras.legacy !== null });
    },
  };
}
