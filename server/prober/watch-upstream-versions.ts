/**
 * Learns the versions the upstream serves from the upstream itself: its own `server/discover`
 * (through the prober, which also recognises a legacy-only server), at start and on a schedule.
 * The last good answer is kept while later checks fail, so a refusal keeps naming what the server
 * served when it last said.
 */
import { probe as realProbe } from './probe.js';
import type { ProbeOptions } from './probe-options.js';
import type { PeerConfig } from './targets/peer-config.js';
import type { ProbeVerdict } from './verdict.js';

export interface UpstreamVersionsHealth {
  /** The versions last learned, or null when the server never said. */
  versions: string[] | null;
  /** The URL that answered them. */
  from: string | null;
  learnedAt: string | null;
  checkedAt: string | null;
  /** Why the last check learned nothing, when it did not. */
  lastError: string | null;
}

export interface UpstreamVersions {
  /** The versions last learned, or undefined when the server never said. */
  current(): readonly string[] | undefined;
  health(): UpstreamVersionsHealth;
  /**
   * Checks now and then on the schedule; answers when the first check is done. Never rejects. A
   * second call does nothing: it is called whenever a policy enforces, and only the first counts.
   */
  start(): Promise<void>;
  /** One check now (the schedule makes the others). Never rejects. */
  check(): Promise<void>;
  stop(): void;
}

export interface WatchUpstreamVersionsOptions {
  /** The MCP endpoints to ask, first that answers wins (the upstream's path, or likely ones under its origin). */
  urls: readonly URL[];
  everyMs: number;
  now: () => number;
  probe?: (peer: PeerConfig, options: ProbeOptions) => Promise<ProbeVerdict>;
  /** Called after each check, so what depends on the versions is rebuilt. */
  onChecked?: () => void;
}

/** What a verdict says the server serves: a modern server's advertised list, a legacy one's negotiated version. */
export function versionsOfVerdict(verdict: ProbeVerdict): string[] | undefined {
  if (verdict.state !== 'ready') return undefined;
  if (verdict.supportedVersions !== null && verdict.supportedVersions.length > 0) return [...verdict.supportedVersions];
  return verdict.version === null ? undefined : [verdict.version];
}

/** The endpoints to ask for an upstream URL: its own path, or `/mcp` then `/` when it names none. */
export function discoverUrlsOf(upstream: URL): URL[] {
  if (upstream.pathname !== '/' && upstream.pathname !== '') return [new URL(upstream.href)];
  return [new URL('/mcp', upstream), new URL('/', upstream)];
}

export function watchUpstreamVersions(options: WatchUpstreamVersionsOptions): UpstreamVersions {
  const probe = options.probe ?? realProbe;
  let versions: string[] | undefined;
  let from: string | null = null;
  let learnedAt: number | null = null;
  let checkedAt: number | null = null;
  let lastError: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let started: Promise<void> | undefined;

  const checkOnce = async () => {
    const problems: string[] = [];
    for (const url of options.urls) {
      try {
        // Legacy handshakes stay off: the server's own discover answer, or its legacy refusal of it, is the evidence.
        const verdict = await probe({ name: 'upstream', target: { kind: 'http', url: url.href } }, { attempts: 1, toolPages: { maxPages: 0 }, now: options.now });
        const learned = versionsOfVerdict(verdict);
        if (learned !== undefined) {
          versions = learned;
          from = url.href;
          learnedAt = options.now();
          lastError = null;
          return;
        }
        problems.push(`${url.href}: ${verdict.state}${verdict.evidence.detail === '' ? '' : ` (${verdict.evidence.detail})`}`);
      } catch (error) {
        problems.push(`${url.href}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    lastError = problems.join('; ');
  };
  const check = () => {
    running ??= checkOnce().finally(() => {
      checkedAt = options.now();
      running = undefined;
      options.onChecked?.();
    });
    return running;
  };

  return {
    current: () => versions,
    health: () => ({
      versions: versions === undefined ? null : [...versions],
      from,
      learnedAt: learnedAt === null ? null : new Date(learnedAt).toISOString(),
      checkedAt: checkedAt === null ? null : new Date(checkedAt).toISOString(),
      lastError,
    }),
    check,
    start() {
      if (started !== undefined) return started;
      if (options.everyMs > 0) {
        timer = setInterval(() => void check(), options.everyMs);
        timer.unref();
      }
      started = check();
      return started;
    },
    stop() {
      clearInterval(timer);
      started ??= Promise.resolve();
    },
  };
}
