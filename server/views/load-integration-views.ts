import { DAY_MS } from '../analysis/compute-week-start.js';
import type { MigrationState } from '../analysis/migration-state.js';
import { dayStart } from '../analysis/plan-clock.js';
import { scopeOf } from '../analysis/plan-scope.js';
import { bucketStart } from '../lib/time-bucket.js';
import type { IntegrationRecord } from '../store/records/integration-record.js';
import type { Store } from '../store/store.js';
import type { PlanRecord } from '../store/records/plan-record.js';
import { loadCallersByEra, type CallerEras } from './load-callers-by-era.js';
import { loadCallerRecords } from './load-caller-records.js';
import { UNIDENTIFIED_KEYS } from './unidentified-keys.js';

export const USAGE_WINDOW_DAYS = 30;

export interface PlanDeadline {
  planId: number;
  planName: string;
  state: 'ok' | 'fix-by' | 'overdue';
  /** "OK", "Fix by 2027-03-01" or "Overdue", as a deadline report says it. */
  label: string;
  /** The last UTC day in the window the caller used the plan's scope, if it did. */
  lastUsedDay: number | null;
}

export interface IntegrationView {
  key: string;
  source: string;
  identifiable: boolean;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  status: IntegrationRecord['status'];
  notes: string | null;
  updatedAt: number | null;
  /** When the caller was marked done on its own after the quiet days; cleared when it comes back. */
  autoClosedAt: number | null;
  /** When an automatically closed caller last came back and got its previous status again. */
  reopenedAt: number | null;
  /** Self-reported clientInfo: "claims to be …", never used to decide anything. */
  claimsToBe: { name: string; version: string | null } | null;
  /**
   * The name an OAuth application gives itself in the Client ID Metadata Document its client_id (the
   * key's URL) points at, when `identity.oauth.clientNames` fetches it: its own claim, shown beside
   * the URL, never used to decide anything. Null when not fetched, or when no fetch brought one.
   */
  clientName: string | null;
  firstSeen: number | null;
  lastSeen: number | null;
  lastLegacySeen: number | null;
  legacyServed: number;
  served: number;
  legacyShare: number | null;
  /** Served work per era in the window; null for an era that served it nothing. */
  eras: CallerEras;
  /** Whether it has started to move (migration-state.ts); null when it was served no work in the window. */
  migration: MigrationState | null;
  /**
   * The distinct people it served work in the window, by era and in all (one who used both eras counts
   * once): those a verified credential named. Null when none did (no mechanism of its names people).
   */
  people: { legacy: number; modern: number; total: number } | null;
  /** Names joined into this caller (old fingerprints, a gateway's name, …): their counts are its own. */
  aliases: string[];
  deadlines: PlanDeadline[];
}

/** How the callers are listed: the most served legacy work first, or the most people first. */
export type IntegrationsOrder = 'legacy' | 'people';

export interface IntegrationsView {
  windowDays: number;
  /** Served legacy requests in the window: callers you can phone versus the unknown installed base. */
  split: { identifiable: number; unknown: number; total: number; identifiableShare: number | null };
  integrations: IntegrationView[];
}

function deadlineOf(plan: PlanRecord, lastUsedDay: number | undefined, now: number): PlanDeadline {
  const base = { planId: plan.id, planName: plan.name, lastUsedDay: lastUsedDay ?? null };
  if (lastUsedDay === undefined) return { ...base, state: 'ok', label: 'OK' };
  if (now < dayStart(plan.retireDate)) return { ...base, state: 'fix-by', label: `Fix by ${plan.retireDate}` };
  return { ...base, state: 'overdue', label: 'Overdue' };
}

/** Every known caller with what was measured of it over the last 30 days, most legacy first (or most people first). */
export async function loadIntegrationViews(store: Store, plans: readonly PlanRecord[], now: number, order: IntegrationsOrder = 'legacy'): Promise<IntegrationsView> {
  // The window is whole UTC days: today and the 29 before it.
  const since = bucketStart(now, 'day') - (USAGE_WINDOW_DAYS - 1) * DAY_MS;
  const volumes = new Map((await store.listCallerVolumes(since)).map((v) => [v.integration, v]));
  const lastUse = await Promise.all(plans.map(async (plan) => ({ plan, byCaller: await store.listScopeLastUse(scopeOf(plan), since) })));
  const { records, aliasesOf } = await loadCallerRecords(store);
  const span = { from: since, to: bucketStart(now, 'day') + DAY_MS };
  const byEra = await loadCallersByEra(store, span);
  const people = new Map((await store.listCallerPeople(span)).map(({ integration, ...counts }) => [integration, counts]));
  // Folded callers have no row of their own, but their volume belongs in the table.
  const keys = new Set([...records.keys(), ...[...volumes.keys()].filter((k) => UNIDENTIFIED_KEYS.has(k))]);

  const integrations = [...keys].map((key): IntegrationView => {
    const record = records.get(key);
    const volume = volumes.get(key);
    const served = volume?.served ?? 0;
    const legacyServed = volume?.legacyServed ?? 0;
    const eras = byEra.eras(key);
    return {
      key,
      source: record?.source ?? 'overflow',
      identifiable: !UNIDENTIFIED_KEYS.has(key),
      displayName: record?.displayName ?? null,
      owner: record?.owner ?? null,
      contact: record?.contact ?? null,
      status: record?.status ?? 'unknown',
      notes: record?.notes ?? null,
      updatedAt: record?.updatedAt ?? null,
      autoClosedAt: record?.autoClosedAt ?? null,
      reopenedAt: record?.reopenedAt ?? null,
      claimsToBe: record?.clientInfoName ? { name: record.clientInfoName, version: record.clientInfoVersion ?? null } : null,
      clientName: record?.clientName ?? null,
      firstSeen: record?.firstSeen ?? null,
      lastSeen: record?.lastSeen ?? null,
      lastLegacySeen: record?.lastLegacySeen ?? null,
      legacyServed,
      served,
      legacyShare: served > 0 ? legacyServed / served : null,
      eras,
      migration: byEra.migration(eras, record?.lastLegacySeen),
      people: people.get(key) ?? null,
      aliases: aliasesOf.get(key) ?? [],
      deadlines: lastUse.map(({ plan, byCaller }) => deadlineOf(plan, byCaller.get(key), now)),
    };
  });
  const byLegacy = (a: IntegrationView, b: IntegrationView) => b.legacyServed - a.legacyServed || a.key.localeCompare(b.key);
  // By people: the most people first, those with legacy users before the rest; callers that name nobody last.
  const byPeople = (a: IntegrationView, b: IntegrationView) =>
    (b.people?.total ?? -1) - (a.people?.total ?? -1) || (b.people?.legacy ?? -1) - (a.people?.legacy ?? -1) || byLegacy(a, b);
  integrations.sort(order === 'people' ? byPeople : byLegacy);
  const identifiable = integrations.filter((i) => i.identifiable).reduce((sum, i) => sum + i.legacyServed, 0);
  const total = integrations.reduce((sum, i) => sum + i.legacyServed, 0);
  return {
    windowDays: USAGE_WINDOW_DAYS,
    split: { identifiable, unknown: total - identifiable, total, identifiableShare: total > 0 ? identifiable / total : null },
    integrations,
  };
}
