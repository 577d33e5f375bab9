import { setTimeout as sleep } from 'node:timers/promises';
import { buildDemoClientHeaders } from './build-demo-client-headers.js';
import { DEMO_CLIENTS, type DemoClient } from './demo-clients.js';
import { DEMO_HISTORY_CALLERS } from './demo-history-callers.js';
import { nextDemoSession, planDemoPace, type DemoDay } from './plan-demo-pace.js';
import { countDemoSessionWork, runDemoSession, type DemoClientKind } from './run-demo-session.js';

export type DemoTrafficOptions = {
  /** The sidecar's origin; the clients use `/mcp` and `/sse` under it. */
  target: URL;
  now?: () => number;
  /** The day the live traffic imitates, as measureDemoHistoryDay finds it; DEFAULT_DEMO_DAY otherwise. */
  day?: DemoDay;
  /** Simulated time per real time: 60 sends an hour's worth of sessions every minute. Defaults to 1. */
  pace?: number;
  /** The header the sidecar reads API keys from (identity.apiKeyHeader). */
  apiKeyHeader?: string;
  /** Failed sessions, one line each; the demo never writes to the console itself. */
  log?: (line: string) => void;
};

export type DemoTrafficStats = {
  sessions: number;
  errors: number;
  /** Sessions left out because the schedule fell too far behind (a suspended machine, say). */
  skipped: number;
  /** Sessions started and not yet over. */
  inFlight: number;
  /** How far through the schedule the clients have got, in simulated ms since the start. */
  scheduledMs: number;
  byClient: Record<DemoClientKind, { sessions: number; errors: number; skipped: number }>;
};

export type DemoTraffic = {
  /** Starts no more sessions; cuts those in flight short, or with `drain`, lets them finish. */
  stop(options?: { drain?: boolean }): Promise<void>;
  stats(): DemoTrafficStats;
};

/** What measureDemoHistoryDay finds in a freshly seeded history, for a demo without one. */
export const DEFAULT_DEMO_DAY: DemoDay = { workRequests: 18_800, legacyShare: 0.078 };

/** Sessions of one client at once. A target too slow for more holds the whole schedule back, so the mix of eras stays. */
const MAX_IN_FLIGHT = 4;
/** Further behind than this (real time), a session is skipped rather than sent in a burst. */
const MAX_BACKLOG_MS = 60_000;
// Longer timers fire at once in Node; a long wait is taken in steps.
const MAX_TIMER_MS = 2_147_483_647;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts real MCP traffic through `target` using the official SDK clients of DEMO_CLIENTS, each
 * starting sessions on the schedule planDemoPace gives it, so that a day of it matches `day` in
 * volume and legacy share of work. Failures are counted (and logged), never thrown.
 */
export function startDemoTraffic(opts: DemoTrafficOptions): DemoTraffic {
  const { now = Date.now, day = DEFAULT_DEMO_DAY, apiKeyHeader = 'x-api-key', log } = opts;
  const pace = opts.pace !== undefined && opts.pace > 0 ? opts.pace : 1;
  const base = new URL(opts.target.href.endsWith('/') ? opts.target.href : `${opts.target.href}/`);
  const clients = new Map(DEMO_CLIENTS.map((c) => [c.kind, c]));
  const periods = planDemoPace(day, DEMO_CLIENTS.map((c) => ({ kind: c.kind, era: c.era, workPerSession: countDemoSessionWork(c.rounds) })));
  const stopping = new AbortController();
  const sessions = new Set<AbortController>();
  const inFlight = Object.fromEntries(DEMO_CLIENTS.map((c) => [c.kind, new Set<Promise<void>>()])) as Record<DemoClientKind, Set<Promise<void>>>;
  const started = Object.fromEntries(DEMO_CLIENTS.map((c) => [c.kind, 0])) as Record<DemoClientKind, number>;
  const byClient = Object.fromEntries(DEMO_CLIENTS.map((c) => [c.kind, { sessions: 0, errors: 0, skipped: 0 }])) as DemoTrafficStats['byClient'];
  let scheduledMs = 0;
  const pause = (ms: number): Promise<void> => sleep(Math.min(MAX_TIMER_MS, Math.max(0, ms)), undefined, { signal: stopping.signal }).catch(() => {});

  const runSession = async (client: DemoClient): Promise<void> => {
    const tally = byClient[client.kind];
    // Each session its own signal: stop() aborts them one by one, and no signal collects listeners.
    const session = new AbortController();
    sessions.add(session);
    try {
      const clientInfo = DEMO_HISTORY_CALLERS.find((caller) => caller.live === client.kind)?.clientInfo;
      await runDemoSession({ kind: client.kind, base, headers: buildDemoClientHeaders(client, apiKeyHeader), rounds: client.rounds, clientInfo }, session.signal);
      tally.sessions++;
    } catch (error) {
      // A session cut short by stop() is not a failure of the target.
      if (session.signal.aborted) return;
      tally.errors++;
      log?.(`demo traffic: ${client.kind} session failed: ${describeError(error)}`);
    } finally {
      sessions.delete(session);
    }
  };

  const runSchedule = async (): Promise<void> => {
    const origin = now();
    while (!stopping.signal.aborted) {
      const next = nextDemoSession(periods, started);
      const dueAt = next === undefined ? Number.POSITIVE_INFINITY : origin + next.dueMs / pace;
      while (now() < dueAt && !stopping.signal.aborted) await pause(dueAt - now());
      if (next === undefined || stopping.signal.aborted) break;
      started[next.kind]++;
      if (now() - dueAt > MAX_BACKLOG_MS) {
        byClient[next.kind].skipped++;
        continue;
      }
      const running = inFlight[next.kind];
      while (running.size >= MAX_IN_FLIGHT) await Promise.race(running);
      if (stopping.signal.aborted) break;
      const session: Promise<void> = runSession(clients.get(next.kind)!).finally(() => running.delete(session));
      running.add(session);
      scheduledMs = next.dueMs;
    }
  };
  const schedule = runSchedule();
  const allInFlight = () => Object.values(inFlight).flatMap((running) => [...running]);

  return {
    async stop(options = {}) {
      stopping.abort();
      if (options.drain !== true) for (const session of sessions) session.abort();
      await schedule;
      await Promise.all(allInFlight());
    },
    stats() {
      const counts = Object.values(byClient);
      const sum = (pick: (c: (typeof counts)[number]) => number) => counts.reduce((n, c) => n + pick(c), 0);
      return {
        sessions: sum((c) => c.sessions),
        errors: sum((c) => c.errors),
        skipped: sum((c) => c.skipped),
        inFlight: allInFlight().length,
        scheduledMs,
        byClient: structuredClone(byClient),
      };
    },
  };
}
