/**
 * The era each peer was last found ready in, keyed on its full configuration (computePeerKey).
 * Only ready verdicts are remembered: unavailability is never an era.
 *
 * How a restart is observed: a stdio probe always spawns a fresh process, and a fresh process is a
 * restart, so `noteSpawn` drops a legacy entry before anything is sent and keeps a modern one only
 * as a hint (the fresh process is probed with `server/discover` all the same). An HTTP endpoint's
 * restart shows as a 404 on a legacy session, which drops the entry; so does any failure of a
 * cached assumption, and any change of the peer's configuration (URL, command, args, env, cwd or
 * policy) under the same name.
 */
import { computePeerKey, type PeerConfig } from '../targets/peer-config.js';
import type { ProbedEra, ProbeVerdict } from '../verdict.js';

export interface CachedEra {
  key: string;
  era: ProbedEra;
  version: string;
  transport: ProbeVerdict['transport'];
  /** Whether the peer advertised tools, so a cached probe knows whether to list them. */
  hasTools: boolean;
  at: number;
}

export type CacheDropReason = 'config-change' | 'restart' | 'session-gone' | 'assumption-failed';

export interface EraCache {
  /** The entry for this exact configuration; one stored under another configuration is dropped. */
  lookup(peer: PeerConfig): CachedEra | undefined;
  /** A fresh stdio process is about to start: drops a legacy entry, answers a modern one as a hint. */
  noteSpawn(peer: PeerConfig): CachedEra | undefined;
  remember(peer: PeerConfig, entry: Omit<CachedEra, 'key'>): void;
  forget(peer: PeerConfig, reason: CacheDropReason): void;
  /** Every drop so far, oldest first, for diagnostics and tests. */
  readonly drops: readonly { peer: string; reason: CacheDropReason }[];
}

export function createEraCache(): EraCache {
  const entries = new Map<string, CachedEra>();
  const drops: { peer: string; reason: CacheDropReason }[] = [];
  const forget = (peer: PeerConfig, reason: CacheDropReason) => {
    if (entries.delete(peer.name)) drops.push({ peer: peer.name, reason });
  };
  const lookup = (peer: PeerConfig) => {
    const entry = entries.get(peer.name);
    if (entry === undefined) return undefined;
    if (entry.key === computePeerKey(peer)) return entry;
    forget(peer, 'config-change');
    return undefined;
  };
  return {
    lookup,
    noteSpawn(peer) {
      const entry = lookup(peer);
      if (entry?.era !== 'legacy') return entry;
      forget(peer, 'restart');
      return undefined;
    },
    remember(peer, entry) {
      entries.set(peer.name, { ...entry, key: computePeerKey(peer) });
    },
    forget,
    drops,
  };
}
