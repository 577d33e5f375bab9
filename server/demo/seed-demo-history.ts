/**
 * Seeds about six months of deterministic demo history, so a fresh demo has a story to tell: the
 * legacy share of work requests falls from ~45% and flattens near 8% (legacy sessions negotiate
 * once per few calls, modern clients once per connection or never), a few identifiable integrations carry most
 * of what is left, and the retirement plan's projection misses its date. Everything it writes is
 * marked as demo data: the node is `demo-history` and a `demo-history-seeded-at` setting records
 * the run, which also makes a second call do nothing.
 */
import { eq } from 'drizzle-orm';
import { isLegacyWorkServed } from '../protocol/served.js';
import { insertPlan } from '../store/sqlite/insert-plan.js';
import type { Db } from '../store/sqlite/open-database.js';
import { settingsTable } from '../store/sqlite/schema/index.js';
import { updateIntegration } from '../store/sqlite/update-integration.js';
import { createTallyWriter } from '../store/sqlite/write-tally-batch.js';
import type { IntegrationSighting, TallyCell } from '../tally/tally-cell.js';
import { buildDemoHistoryDay } from './build-demo-history-day.js';
import { createSeededRandom } from '../lib/create-seeded-random.js';
import { DEMO_HISTORY_CALLERS, type DemoHistoryCaller } from './demo-history-callers.js';
import type { DemoClientKind } from './run-demo-session.js';

export const DEMO_HISTORY_NODE = 'demo-history';
export const DEMO_HISTORY_SETTING = 'demo-history-seeded-at';
export const DEMO_PLAN_NAME = 'Retire the legacy (initialize) era';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** The share stops falling this many days before today: the trend's 12-week window sees it flat. */
const FLAT_DAYS = 100;
const START_SHARE = 0.45;
const FLAT_SHARE = 0.078;
/** Served work requests on a weekday at the start; modern adoption grows it by a quarter. */
const WEEKDAY_REQUESTS = 18_000;
/** Weekends are quieter, more so for people than for the batch jobs still on legacy. */
const WEEKEND = { legacy: 0.62, modern: 0.55 };

export interface SeedDemoHistoryOptions {
  /** How many days back the history starts (default 180). */
  days?: number;
  /** PRNG seed: the same seed and `now` always write the same rows. */
  seed?: number;
  /**
   * How the sidecar identifies each live demo client (see identifyDemoClients). The callers the
   * clients play are filed under these keys; without them, under the cast's own keys.
   */
  liveCallers?: Partial<Record<DemoClientKind, { integration: string; source: string }>>;
}

export interface DemoHistorySummary {
  /** False when the database had been seeded before (nothing was written). */
  seeded: boolean;
  planId: number | null;
  requests: number;
  cells: number;
}

/** True once seedDemoHistory has run against this database. */
export function isDemoHistorySeeded(db: Db): boolean {
  return db.select().from(settingsTable).where(eq(settingsTable.key, DEMO_HISTORY_SETTING)).get() !== undefined;
}

/** The legacy share of work the seeded curve follows `ageDays` before today (before weekday effects and noise). */
export function computeDemoLegacyShare(ageDays: number, days: number): number {
  const decline = Math.max(1, days - FLAT_DAYS);
  const remaining = Math.min(1, Math.max(0, (ageDays - FLAT_DAYS) / decline));
  // A slow wobble keeps the flat tail honest: no trend, but not a ruler-straight line either.
  return (FLAT_SHARE + (START_SHARE - FLAT_SHARE) * remaining ** 2) * (1 + 0.04 * Math.sin((2 * Math.PI * ageDays) / 17));
}

/** The cast, with each caller a live client plays filed under the key the sidecar gives that client. */
function castOf(liveCallers: SeedDemoHistoryOptions['liveCallers'] = {}): DemoHistoryCaller[] {
  return DEMO_HISTORY_CALLERS.map((caller) => {
    const live = caller.live === undefined ? undefined : liveCallers[caller.live];
    // A client the sidecar cannot tell apart is part of the anonymous base, not this caller.
    return live === undefined || live.source === 'anonymous' ? caller : { ...caller, key: live.integration, source: live.source };
  });
}

function buildCells(now: number, days: number, seed: number, cast: readonly DemoHistoryCaller[]): TallyCell[] {
  const random = createSeededRandom(seed);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const cells: TallyCell[] = [];
  for (let age = days; age >= 0; age -= 1) {
    const dayStart = today - age * DAY_MS;
    const weekend = [0, 6].includes(new Date(dayStart).getUTCDay());
    // Today is still in progress: only the part of it that has passed, all stamped before now.
    const elapsed = age === 0 ? Math.max(0.05, (now - today) / DAY_MS) : 1;
    const total = WEEKDAY_REQUESTS * (1 + (0.25 * (days - age)) / days) * elapsed;
    const share = computeDemoLegacyShare(age, days);
    const noise = () => 1 + 0.06 * (random() - 0.5);
    cells.push(
      ...buildDemoHistoryDay(
        {
          dayStart,
          until: age === 0 ? Math.floor(now / MINUTE_MS) * MINUTE_MS : dayStart + DAY_MS - MINUTE_MS,
          ageDays: age,
          elapsedDays: days - age,
          progress: Math.min(1, Math.max(0, (days - age) / Math.max(1, days - FLAT_DAYS))),
          legacyWork: total * share * (weekend ? WEEKEND.legacy : 1) * noise(),
          modernWork: total * (1 - share) * (weekend ? WEEKEND.modern : 1) * noise(),
          scale: elapsed * (weekend ? WEEKEND.modern : 1),
          node: DEMO_HISTORY_NODE,
          random,
        },
        cast,
      ),
    );
  }
  return cells;
}

/** What the store learns about each caller from its cells, as a live flush would report it. */
function sightingsOf(cells: readonly TallyCell[], cast: readonly DemoHistoryCaller[]): IntegrationSighting[] {
  return cast.flatMap((caller): IntegrationSighting[] => {
    const own = cells.filter((c) => c.integration === caller.key);
    if (own.length === 0) return [];
    const minutes = own.map((c) => c.minute);
    const legacy = own.filter(isLegacyWorkServed).map((c) => c.minute);
    return [{
      key: caller.key,
      source: caller.source,
      firstSeen: Math.min(...minutes),
      lastSeen: Math.max(...minutes),
      lastLegacySeen: legacy.length > 0 ? Math.max(...legacy) : undefined,
      clientInfo: caller.clientInfo,
    }];
  });
}

function isoDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * Writes the demo history as of `now` through the same writer a live flush uses, notes what
 * operators know about the callers, and publishes a retirement plan (legacy era, announced four
 * months ago, retiring in six weeks, target 0.5%) that the flat curve will miss. Idempotent.
 * Running the alert rules twice afterwards fires `curve-flattened` for the plan.
 */
export function seedDemoHistory(db: Db, now: number, options: SeedDemoHistoryOptions = {}): DemoHistorySummary {
  const days = Math.max(1, Math.floor(options.days ?? 180));
  return db.transaction(() => {
    const claim = db.insert(settingsTable).values({ key: DEMO_HISTORY_SETTING, value: new Date(now).toISOString() }).onConflictDoNothing().run();
    if (claim.changes === 0) return { seeded: false, planId: null, requests: 0, cells: 0 };

    const cast = castOf(options.liveCallers);
    const cells = buildCells(now, days, options.seed ?? 20_260_728, cast);
    createTallyWriter(db)({ cells, integrations: sightingsOf(cells, cast) });
    for (const caller of cast) {
      if (caller.registry !== undefined) updateIntegration(db, caller.key, caller.registry, now);
    }
    const retireDate = isoDay(now + 42 * DAY_MS);
    const brownoutStart = Date.parse(`${isoDay(now + 28 * DAY_MS)}T14:00:00Z`);
    const plan = insertPlan(
      db,
      {
        name: DEMO_PLAN_NAME,
        scopeKind: 'era',
        scopeValue: 'legacy',
        announceDate: isoDay(now - 120 * DAY_MS),
        retireDate,
        targetShare: 0.005,
        basis: 'work-requests',
        policyUrl: 'https://example.com/mcp/legacy-retirement',
        brownouts: [{ startsAt: brownoutStart, endsAt: brownoutStart + 2 * 3_600_000, note: 'Two-hour brownout: legacy sessions are refused' }],
        // The demo observes: a brownout in its seeded plan must not refuse the live demo clients.
        action: 'observe',
        blockNewCallersFrom: null,
        quietDays: 30,
        gate: null,
        exemptions: [],
        declaredKey: null,
      },
      now,
    );
    const requests = cells.filter((c) => c.kind === 'request').reduce((sum, c) => sum + c.count, 0);
    return { seeded: true, planId: plan.id, requests, cells: cells.length };
  });
}
