/**
 * One day of seeded demo traffic as tally cells: the day's legacy and modern work split over the
 * demo callers, their protocol paths and methods, the negotiation and plumbing that work brings
 * with it, plus a few refusals, failures and era-negotiation probes. Pure apart from the random
 * source it is handed.
 */
import { METHOD } from '../protocol/method-names.js';
import type { Reason } from '../protocol/vocabulary.js';
import type { TallyCell, TrafficLabels } from '../tally/tally-cell.js';
import type { DemoHistoryCaller } from './demo-history-callers.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MODERN_VERSION = '2026-07-28';
/** An initialize asking for a pre-release version the server never spoke. */
const REFUSED_VERSION = '2024-10-07';

/** Of a legacy caller's work requests. */
const LEGACY_WORK = [
  ['tools/list', 0.1],
  ['tools/call', 0.9],
] as const;
/** A legacy session does a few calls after its initialize and keeps itself alive with the odd ping. */
const LEGACY_CALLS_PER_SESSION = 6;
const LEGACY_CALLS_PER_PING = 15;
/** Of a modern caller's work requests. */
const MODERN_WORK = [
  ['tools/call', 0.82],
  ['tools/list', 0.1],
  ['resources/read', 0.08],
] as const;
/** An auto-negotiating modern client discovers once per connection, which serves many calls. */
const MODERN_CALLS_PER_CONNECTION = 40;

export interface DemoHistoryDay {
  dayStart: number;
  /** Cells are stamped no later than this minute (today is still in progress). */
  until: number;
  /** Whole days between this day and today. */
  ageDays: number;
  /** Whole days since the history starts. */
  elapsedDays: number;
  /** 0 at the start of the history, 1 once the migrations are over. */
  progress: number;
  /** Work requests (neither negotiation nor plumbing) each era served this day. */
  legacyWork: number;
  modernWork: number;
  /** Scales the small extras (refusals, failures, probes) with the day's volume. */
  scale: number;
  node: string;
  random: () => number;
}

function weightOf(range: { early: number; late: number }, progress: number): number {
  return range.early + (range.late - range.early) * progress;
}

/** Each caller's part of `total`, by its weight at `progress`. */
function splitAmong(callers: readonly DemoHistoryCaller[], pick: (c: DemoHistoryCaller) => number, total: number): [DemoHistoryCaller, number][] {
  const weights = callers.map((c) => [c, pick(c)] as const).filter(([, w]) => w > 0);
  const sum = weights.reduce((s, [, w]) => s + w, 0);
  return sum > 0 ? weights.map(([c, w]) => [c, (total * w) / sum]) : [];
}

export function buildDemoHistoryDay(day: DemoHistoryDay, callers: readonly DemoHistoryCaller[]): TallyCell[] {
  const cells: TallyCell[] = [];
  const span = Math.max(1, Math.min(DAY_MS, day.until - day.dayStart + MINUTE_MS) / MINUTE_MS);
  const add = (labels: TrafficLabels, count: number) => {
    const rounded = Math.round(count);
    if (rounded <= 0) return;
    const minute = day.dayStart + Math.floor(day.random() * span) * MINUTE_MS;
    cells.push({ ...labels, minute, node: day.node, count: rounded, mismatchCount: 0 });
  };
  const active = callers.filter((c) => day.ageDays <= c.sinceDays);

  for (const [caller, volume] of splitAmong(active, (c) => weightOf(c.legacy, day.progress), day.legacyWork)) {
    const weights = caller.legacy.paths.map((p) => p.weight * (p.halfLifeDays === undefined ? 1 : 2 ** (-day.elapsedDays / p.halfLifeDays)));
    const sum = weights.reduce((s, w) => s + w, 0);
    for (const [index, path] of caller.legacy.paths.entries()) {
      const onPath = (volume * (weights[index] ?? 0)) / sum;
      const sse = path.transport === 'http+sse';
      const base = { era: 'legacy', transport: path.transport, version: path.version, integration: caller.key } as const;
      const inSession: Reason = sse ? 'sse-message' : 'session-header';
      for (const [method, part] of LEGACY_WORK) add({ ...base, reason: inSession, method, kind: 'request', outcome: 'served' }, onPath * part);
      const sessions = onPath / LEGACY_CALLS_PER_SESSION;
      add({ ...base, reason: 'initialize', method: METHOD.initialize, kind: 'request', outcome: 'served' }, sessions);
      add({ ...base, reason: 'initialize', method: METHOD.initialized, kind: 'notification', outcome: 'accepted' }, sessions);
      add({ ...base, reason: inSession, method: 'ping', kind: 'request', outcome: 'served' }, onPath / LEGACY_CALLS_PER_PING);
    }
  }

  for (const [caller, volume] of splitAmong(active, (c) => weightOf(c.modern, day.progress), day.modernWork)) {
    const base = { era: 'modern', transport: caller.modern.transport, reason: 'modern-meta', version: MODERN_VERSION, kind: 'request', integration: caller.key } as const;
    for (const [method, part] of MODERN_WORK) add({ ...base, method, outcome: 'served' }, volume * part);
    // Only auto-negotiating clients ask server/discover; pinned ones never negotiate at all.
    if (caller.modern.negotiates) add({ ...base, method: METHOD.discover, outcome: 'served' }, volume / MODERN_CALLS_PER_CONNECTION);
  }

  // Refused: old installs asking for a version the server dropped. Failed: the odd server error.
  // Probes: auto clients asking legacy-only nodes of the fleet which eras they speak.
  const extras = (mean: number) => day.scale * mean * (0.4 + 1.2 * day.random());
  add({ era: 'legacy', transport: 'streamable-http', reason: 'initialize', version: REFUSED_VERSION, method: METHOD.initialize, kind: 'request', outcome: 'unsupported-version', integration: 'anonymous' }, extras(4));
  add({ era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25', method: 'tools/call', kind: 'request', outcome: 'server-error', integration: 'anonymous' }, extras(2));
  add({ era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: MODERN_VERSION, method: 'tools/call', kind: 'request', outcome: 'server-error', integration: 'anonymous' }, extras(3));
  add({ era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: MODERN_VERSION, method: METHOD.discover, kind: 'request', outcome: 'method-not-found', integration: 'anonymous' }, extras(14));
  return cells;
}
