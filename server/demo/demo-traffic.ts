import { setTimeout as sleep } from 'node:timers/promises';
import { runDemoSession, type DemoClientKind } from './run-demo-session.js';

export type DemoTrafficOptions = {
  /** The sidecar's origin; the clients use `/mcp` and `/sse` under it. */
  target: URL;
  now?: () => number;
  /** 2 means twice the traffic (pauses halved); defaults to 1. */
  rateScale?: number;
  /** Failed sessions, one line each; the demo never writes to the console itself. */
  log?: (line: string) => void;
};

export type DemoTrafficStats = {
  sessions: number;
  errors: number;
  byClient: Record<DemoClientKind, { sessions: number; errors: number }>;
};

export type DemoTraffic = {
  stop(): Promise<void>;
  stats(): DemoTrafficStats;
};

/**
 * The demo's callers. Each has its own bearer token so the sidecar sees four integrations.
 * A legacy session is ~7 HTTP exchanges (handshake, GET stream, 1 round, count); a modern one with
 * 3 rounds is ~11, and at `tempo` 2 they come twice as often: about 3× the legacy requests.
 */
export const DEMO_CLIENTS: readonly { kind: DemoClientKind; token: string; rounds: number; tempo: number }[] = [
  { kind: 'legacy-http', token: 'demo-token-acme-legacy', rounds: 1, tempo: 1 },
  { kind: 'legacy-sse', token: 'demo-token-globex-sse', rounds: 1, tempo: 1 },
  { kind: 'modern-pin', token: 'demo-token-initech-modern', rounds: 3, tempo: 2 },
  { kind: 'modern-auto', token: 'demo-token-umbrella-auto', rounds: 3, tempo: 2 },
];

const MIN_PERIOD_MS = 500;
const MAX_PERIOD_MS = 2_000;
// A floor between sessions, so a target that fails instantly is not hammered in a tight loop.
const MIN_GAP_MS = 50;
const MAX_START_STAGGER_MS = 300;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts steady, real MCP traffic through `target` using the official SDK clients, one loop per
 * entry of `DEMO_CLIENTS`. Failures are counted (and logged), never thrown.
 */
export function startDemoTraffic(opts: DemoTrafficOptions): DemoTraffic {
  const { now = Date.now, rateScale = 1, log } = opts;
  const scale = rateScale > 0 ? rateScale : 1;
  const base = new URL(opts.target.href.endsWith('/') ? opts.target.href : `${opts.target.href}/`);
  const stopping = new AbortController();
  const byClient = Object.fromEntries(DEMO_CLIENTS.map((c) => [c.kind, { sessions: 0, errors: 0 }])) as DemoTrafficStats['byClient'];
  const pause = (ms: number): Promise<void> => sleep(ms, undefined, { signal: stopping.signal }).catch(() => {});

  const runLoop = async ({ kind, token, rounds, tempo }: (typeof DEMO_CLIENTS)[number]): Promise<void> => {
    const tally = byClient[kind];
    await pause(Math.random() * MAX_START_STAGGER_MS);
    while (!stopping.signal.aborted) {
      const startedAt = now();
      try {
        await runDemoSession(kind, base, token, rounds, stopping.signal);
        tally.sessions++;
      } catch (error) {
        // A session cut short by stop() is not a failure of the target.
        if (stopping.signal.aborted) break;
        tally.errors++;
        log?.(`demo traffic: ${kind} session failed: ${describeError(error)}`);
      }
      // The period runs from the session's start, so the request rate stays steady however long the session took.
      const periodMs = (MIN_PERIOD_MS + Math.random() * (MAX_PERIOD_MS - MIN_PERIOD_MS)) / (scale * tempo);
      await pause(Math.max(MIN_GAP_MS, startedAt + periodMs - now()));
    }
  };
  const loops = DEMO_CLIENTS.map(runLoop);

  return {
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
    stats() {
      const counts = Object.values(byClient);
      return {
        sessions: counts.reduce((n, c) => n + c.sessions, 0),
        errors: counts.reduce((n, c) => n + c.errors, 0),
        byClient: structuredClone(byClient),
      };
    },
  };
}
