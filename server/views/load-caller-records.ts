import type { IntegrationRecord } from '../store/records/integration-record.js';
import type { Store } from '../store/store.js';

/** The callers' records as joined: one per caller, with the names joined into it. */
export interface CallerRecords {
  /** Caller → its record; an alias's sightings are folded into its caller's (earliest first seen, latest last seen). */
  records: Map<string, IntegrationRecord>;
  /** Caller → the names joined into it, in order. */
  aliasesOf: Map<string, string[]>;
  /** Name → the caller it is joined into. */
  callerOf: Map<string, string>;
}

const later = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * The integrations registry as the joins have it: what operators wrote stays on the caller's own
 * record, what was measured of every name joined into it is folded in, and the names themselves
 * drop out of the list. Reads the store; answers plain maps.
 */
export async function loadCallerRecords(store: Store): Promise<CallerRecords> {
  const aliases = await store.listCallerAliases();
  const callerOf = new Map(aliases.map((row) => [row.alias, row.caller]));
  const aliasesOf = new Map<string, string[]>();
  for (const row of aliases) aliasesOf.set(row.caller, [...(aliasesOf.get(row.caller) ?? []), row.alias]);
  const all = await store.listIntegrations();
  const records = new Map(all.filter((record) => !callerOf.has(record.key)).map((record) => [record.key, record]));
  for (const record of all) {
    const caller = callerOf.get(record.key);
    if (caller === undefined) continue;
    const own = records.get(caller);
    if (own === undefined) {
      records.set(caller, { ...record, key: caller });
      continue;
    }
    records.set(caller, {
      ...own,
      firstSeen: Math.min(own.firstSeen, record.firstSeen),
      lastSeen: Math.max(own.lastSeen, record.lastSeen),
      lastLegacySeen: later(own.lastLegacySeen, record.lastLegacySeen),
      clientInfoName: own.clientInfoName ?? record.clientInfoName,
      clientInfoVersion: own.clientInfoName === null ? record.clientInfoVersion : own.clientInfoVersion,
      clientName: own.clientName ?? record.clientName,
      clientNameAt: own.clientName === null ? record.clientNameAt : own.clientNameAt,
    });
  }
  return { records, aliasesOf, callerOf };
}
