/**
 * How often each live demo client starts a session, so that a day of live traffic looks like a
 * recent day of the seeded history: about as many work requests, and about the same legacy share.
 * Pure: the day's figures and the clients' session shapes in, periods out.
 */
import type { Era } from '../protocol/vocabulary.js';

const DAY_MS = 86_400_000;

/** A day of demo traffic as the share counts it: served work requests and the legacy part of them. */
export interface DemoDay {
  workRequests: number;
  legacyShare: number;
}

export interface PacedDemoClient<K extends string = string> {
  kind: K;
  era: Extract<Era, 'legacy' | 'modern'>;
  /** Work requests one session of this client sends. */
  workPerSession: number;
}

/**
 * Each client's period between session starts, in (simulated) ms. Each era's share of the day's
 * work is split evenly among that era's clients.
 */
export function planDemoPace<K extends string>(day: DemoDay, clients: readonly PacedDemoClient<K>[]): Record<K, number> {
  const share = Math.min(1, Math.max(0, day.legacyShare));
  const eraWork = { legacy: day.workRequests * share, modern: day.workRequests * (1 - share) };
  const peers = (era: Era) => clients.filter((c) => c.era === era).length;
  const periods = {} as Record<K, number>;
  for (const client of clients) {
    const sessionsPerDay = eraWork[client.era] / peers(client.era) / Math.max(1, client.workPerSession);
    // An era with no work in the day gets no sessions.
    periods[client.kind] = sessionsPerDay > 0 ? DAY_MS / sessionsPerDay : Number.POSITIVE_INFINITY;
  }
  return periods;
}

/**
 * The session to start next, all clients' schedules merged. A client's sessions fall in the middle
 * of its periods, so a stretch of the schedule holds as many sessions as periods, with no extra one
 * at its start; only the first is brought forward to the very start, so the demo shows every client
 * at once. `started` counts each client's sessions so far. Walking the merged schedule in order keeps
 * the mix of eras wherever the walk is cut off.
 */
export function nextDemoSession<K extends string>(periods: Readonly<Record<K, number>>, started: Readonly<Record<K, number>>): { kind: K; dueMs: number } | undefined {
  let next: { kind: K; dueMs: number } | undefined;
  for (const kind of Object.keys(periods) as K[]) {
    const periodMs = periods[kind];
    if (!Number.isFinite(periodMs)) continue;
    const count = started[kind] ?? 0;
    const dueMs = count === 0 ? 0 : (count + 0.5) * periodMs;
    if (next === undefined || dueMs < next.dueMs) next = { kind, dueMs };
  }
  return next;
}
