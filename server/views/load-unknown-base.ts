import type { Store } from '../store/store.js';

/** One claimed client of the unknown base, with the share of the base's served legacy work it holds. */
export interface ClaimedClientView {
  claim: { kind: 'client-info' | 'user-agent' | 'none'; name: string; version: string };
  legacy: number;
  modern: number;
  /** Of the unknown base's served legacy work in the window; null when it had none. */
  legacyShare: number | null;
}

export interface UnknownBaseView {
  from: number;
  to: number;
  /** Served work requests no trusted mechanism named, in the window. */
  totals: { legacy: number; modern: number };
  claims: ClaimedClientView[];
}

/** The days the unknown base is described over unless asked: the last 30, today included. */
export const UNKNOWN_BASE_DAYS = 30;

/**
 * The unknown installed base described by what its clients claim to be, over the UTC days of the
 * span: most legacy work first. Claims only: nothing here names a caller or decides anything.
 */
export async function loadUnknownBase(store: Store, span: { from: number; to: number }): Promise<UnknownBaseView> {
  const { from, to } = span;
  const rows = await store.listClaimedClients({ from, to });
  const legacy = rows.reduce((sum, row) => sum + row.legacy, 0);
  const modern = rows.reduce((sum, row) => sum + row.modern, 0);
  return {
    from,
    to,
    totals: { legacy, modern },
    claims: rows.map((row) => ({ claim: { kind: row.kind, name: row.name, version: row.version }, legacy: row.legacy, modern: row.modern, legacyShare: legacy > 0 ? row.legacy / legacy : null })),
  };
}
