import { setTimeout as sleep } from 'node:timers/promises';
import { buildDemoClientHeaders } from './build-demo-client-headers.js';
import { DEMO_CLIENTS, type DemoClient } from './demo-clients.js';
import { DEMO_HISTORY_CALLERS } from './demo-history-callers.js';
import { countDemoSessionsDue, planDemoPace, type DemoDay } from './plan-demo-pace.js';
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
  /** Sessions left out because the clients fell too far behind their schedule (a suspended machine, say). */
  skipped: number;
  byClient: Record<DemoClientKind, { sessions: number; errors: number; skipped: number }>;
};

export type DemoTraffic = {
  stop(): Promise<void>;
  stats(): DemoTrafficStats;
};

/** About what measureDemoHistoryDay finds in a freshly seeded history, for a demo without one. */
export const DEFAULT_DEMO_DAY: DemoDay = { workRequests: 18_800, legacyShare: 0.078 };

const MAX_START_STAGGER_MS = 300;
/** Sessions of one client at once; more would mean the target cannot keep up, and waiting is kinder. */
const MAX_IN_FLIGHT = 4;
/** Further behind than this (real time), the backlog is dropped rather than sent in a burst. */
const MAX_BACKLOG_MS = 60_000;
// Longer timers fire at once in Node; a long wait is taken in steps.
const MAX_TIMER_MS = 2_147_483_647;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts real MCP traffic through `target` using the official SDK clients, one loop per entry of
 * DEMO_CLIENTS, each starting sessions on the schedule planDemoPace gives it, so that a day of it
 * matches `day` in volume and legacy share of work. Failures are counted (and logged), never thrown.
 */
export function startDemoTraffic(opts: DemoTrafficOptions): DemoTraffic {
  const { now = Date.now, day = DEFAULT_DEMO_DAY, apiKeyHeader = 'x-api-key', log } = opts;
  const pace = opts.pace !== undefined && opts.pace > 0 ? opts.pace : 1;
  const base = new URL(opts.target.href.endsWith('/') ? opts.target.href : `${opts.target.href}/`);
  const periods = planDemoPace(day, DEMO_CLIENTS.map((c) => ({ kind: c.kind, era: c.era, workPerSession: countDemoSessionWork(c.rounds) })));
  const stopping = new AbortController();
  const sessions = new Set<AbortController>();
  const byClient = Object.fromEntries(DEMO_CLIENTS.map((c) => [c.kind, { sessions: 0, errors: 0, skipped: 0 }])) as DemoTrafficStats['byClient'];
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
      if (stopping.signal.aborted) return;
      tally.errors++;
      log?.(`demo traffic: ${client.kind} session failed: ${describeError(error)}`);
    } finally {
      sessions.delete(session);
    }
  };

  const runLoop = async (client: DemoClient): Promise<void> => {
    const periodMs = periods[client.kind];
    const tally = byClient[client.kind];
    const inFlight = new Set<Promise<void>>();
    const origin = now() + Math.random() * MAX_START_STAGGER_MS;
    for (let slot = 0; !stopping.signal.aborted; slot++) {
      const dueAt = slot === 0 ? origin : origin + (slot * periodMs) / pace;
      while (now() < dueAt && !stopping.signal.aborted) await pause(dueAt - now());
      if (now() - dueAt > MAX_BACKLOG_MS) {
        const current = countDemoSessionsDue(periodMs, (now() - origin) * pace) - 1;
        tally.skipped += current - slot;
        slot = current;
      }
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      if (stopping.signal.aborted) break;
      const session: Promise<void> = runSession(client).finally(() => inFlight.delete(session));
      inFlight.add(session);
    }
    await Promise.all(inFlight);
  };
  const loops = DEMO_CLIENTS.map(runLoop);

  return {
    async stop() {
      stopping.abort();
      for (const session of sessions) session.abort();
      await Promise.all(loops);
    },
    stats() {
      const counts = Object.values(byClient);
      const sum = (pick: (c: (typeof counts)[number]) => number) => counts.reduce((n, c) => n + pick(c), 0);
      return { sessions: sum((c) => c.sessions), errors: sum((c) => c.errors), skipped: sum((c) => c.skipped), byClient: structuredClone(byClient) };
    },
  };
}
