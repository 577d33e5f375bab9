/**
 * Who moved this week, judged week against the week before on served work per era. Pure.
 * Invariants: a caller is in at most one of moved, startedMigrating and wentQuiet, each judged on
 * identifiable callers only (nobody can phone `anonymous`); `remaining` is the top of the
 * identifiable callers by legacy work this week, and its shares are of all legacy work this week.
 * People are counted by the store (distinct, as verified credentials named them) and passed through.
 */
import { migrationState, type MigrationState } from './migration-state.js';

/** Served work requests of one era over one week, with the versions they came by. */
export interface WeekEraUse {
  requests: number;
  versions: readonly string[];
  lastSeen: number;
}

export interface DigestCallerInput {
  integration: string;
  identifiable: boolean;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  thisWeek: { legacy: WeekEraUse | null; modern: WeekEraUse | null };
  lastWeek: { legacy: WeekEraUse | null; modern: WeekEraUse | null };
  /** Whether the registry remembers legacy work from it at any time (the two weeks speak for themselves). */
  everLegacy: boolean;
  /** The distinct people its legacy work came from this week; null when no credential of its named anyone. */
  legacyPeople: number | null;
}

/** Distinct people served legacy work over every caller (one behind two callers counts once), this week and the week before. */
export interface WeekPeople {
  thisWeek: number;
  lastWeek: number;
}

export interface DigestCaller {
  integration: string;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  migration: MigrationState | null;
  legacyRequests: number;
  modernRequests: number;
  /** The versions its legacy work came by this week, else last week's. */
  legacyVersions: string[];
}

/** A caller still on legacy, with its part of this week's legacy work. */
export interface RemainingCaller extends DigestCaller {
  shareOfLegacy: number;
  /** The distinct people its legacy work came from this week; null when no credential of its named anyone. */
  legacyPeople: number | null;
}

export interface DigestCallers {
  /** Legacy (alone or beside modern) last week, modern only this week. */
  moved: DigestCaller[];
  /** Legacy only last week, legacy and modern this week. */
  startedMigrating: DigestCaller[];
  /** Legacy last week, nothing at all this week: not moved, as far as the counts show. */
  wentQuiet: DigestCaller[];
  /** The largest identifiable callers still sending legacy work this week, most first. */
  remaining: RemainingCaller[];
  /** Identifiable callers with legacy work this week, named or not. */
  remainingCount: number;
  /** This week's legacy work: from callers one can phone, and from the unknown installed base; and the people behind it. */
  legacy: { identifiable: number; unknown: number; total: number; people: WeekPeople };
}

function stateOf(use: { legacy: WeekEraUse | null; modern: WeekEraUse | null }, everLegacy: boolean): MigrationState | null {
  return migrationState({ legacy: use.legacy?.requests ?? 0, modern: use.modern?.requests ?? 0, everLegacy });
}

function callerOf(input: DigestCallerInput, migration: MigrationState | null): DigestCaller {
  const { integration, displayName, owner, contact, thisWeek, lastWeek } = input;
  return {
    integration,
    displayName,
    owner,
    contact,
    migration,
    legacyRequests: thisWeek.legacy?.requests ?? 0,
    modernRequests: thisWeek.modern?.requests ?? 0,
    legacyVersions: [...(thisWeek.legacy ?? lastWeek.legacy)?.versions ?? []],
  };
}

export function classifyDigestCallers(callers: readonly DigestCallerInput[], top: number, people: WeekPeople): DigestCallers {
  const moved: DigestCaller[] = [];
  const startedMigrating: DigestCaller[] = [];
  const wentQuiet: DigestCaller[] = [];
  const still: (DigestCaller & { legacyPeople: number | null })[] = [];
  let identifiableLegacy = 0;
  let totalLegacy = 0;
  for (const caller of callers) {
    const legacy = caller.thisWeek.legacy?.requests ?? 0;
    totalLegacy += legacy;
    if (!caller.identifiable) continue;
    identifiableLegacy += legacy;
    const lastState = stateOf(caller.lastWeek, caller.everLegacy || caller.lastWeek.legacy !== null);
    const thisState = stateOf(caller.thisWeek, caller.everLegacy || caller.lastWeek.legacy !== null || caller.thisWeek.legacy !== null);
    const entry = callerOf(caller, thisState);
    const wasLegacy = lastState === 'legacy-only' || lastState === 'migrating';
    if (wasLegacy && thisState === 'moved') moved.push(entry);
    else if (lastState === 'legacy-only' && thisState === 'migrating') startedMigrating.push(entry);
    else if (wasLegacy && thisState === null) wentQuiet.push(entry);
    if (legacy > 0) still.push({ ...entry, legacyPeople: caller.legacyPeople });
  }
  const byName = (a: DigestCaller, b: DigestCaller) => a.integration.localeCompare(b.integration);
  for (const list of [moved, startedMigrating, wentQuiet]) list.sort(byName);
  still.sort((a, b) => b.legacyRequests - a.legacyRequests || byName(a, b));
  const remaining = still.slice(0, Math.max(0, top)).map((caller) => ({ ...caller, shareOfLegacy: totalLegacy > 0 ? caller.legacyRequests / totalLegacy : 0 }));
  return {
    moved,
    startedMigrating,
    wentQuiet,
    remaining,
    remainingCount: still.length,
    legacy: { identifiable: identifiableLegacy, unknown: totalLegacy - identifiableLegacy, total: totalLegacy, people: { thisWeek: people.thisWeek, lastWeek: people.lastWeek } },
  };
}
