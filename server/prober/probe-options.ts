/**
 * Settings of a probe run, with the defaults mcp-sunset ships.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BackoffSettings } from './compute-backoff.js';
import { DEFAULT_TOOL_PAGE_LIMITS, type ToolPageLimits } from './catalogue/collect-tools.js';
import type { EraCache } from './attempt/era-cache.js';
import type { ClientInfo } from './wire/probe-messages.js';
import { DEFAULT_LEGACY_VERSIONS, DEFAULT_MODERN_VERSIONS } from './judge/select-versions.js';

export interface ProbeOptions extends Partial<BackoffSettings> {
  /** Deadline of each `server/discover` (and of each later request). Default 10 s. */
  probeTimeoutMs?: number;
  /** Deadline of the one legacy `initialize`. Default 10 s. */
  initializeTimeoutMs?: number;
  /** Attempts per peer while it is unavailable, each starting with `server/discover`. Default 3. */
  attempts?: number;
  /** Modern revisions to speak, best first. */
  modernVersions?: readonly string[];
  /** Legacy revisions a validated `initialize` may settle on, best first. */
  legacyVersions?: readonly string[];
  clientInfo?: ClientInfo;
  /** Eras found ready are kept here between probes; without one nothing is remembered. */
  cache?: EraCache;
  toolPages?: Partial<ToolPageLimits>;
  /** Same-origin redirects followed per request. Default 5. */
  maxRedirects?: number;
  /** Largest HTTP body (or the SSE events before the answer) read. Default 4 MiB. */
  maxBodyBytes?: number;
  /** The clock, epoch ms. */
  now?: () => number;
  /** How the backoff waits; tests pass a fast one. */
  sleep?: (ms: number) => Promise<unknown>;
}

export type ResolvedProbeOptions = Required<Omit<ProbeOptions, 'cache' | 'toolPages'>> & { cache: EraCache | undefined; toolPages: ToolPageLimits };

export const DEFAULT_CLIENT_INFO: Readonly<ClientInfo> = { name: 'mcp-sunset-prober', version: '0.1.0' };

export function resolveProbeOptions(options: ProbeOptions = {}): ResolvedProbeOptions {
  return {
    probeTimeoutMs: options.probeTimeoutMs ?? 10_000,
    initializeTimeoutMs: options.initializeTimeoutMs ?? 10_000,
    attempts: Math.max(1, options.attempts ?? 3),
    initialBackoffMs: options.initialBackoffMs ?? 1000,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    // A one-shot probe answers at once; a long-running caller that retries on its own opts in.
    waitOnRetryAfter: options.waitOnRetryAfter ?? false,
    modernVersions: options.modernVersions ?? DEFAULT_MODERN_VERSIONS,
    legacyVersions: options.legacyVersions ?? DEFAULT_LEGACY_VERSIONS,
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    cache: options.cache,
    toolPages: { ...DEFAULT_TOOL_PAGE_LIMITS, ...options.toolPages },
    maxRedirects: options.maxRedirects ?? 5,
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms: number) => sleep(ms)),
  };
}
