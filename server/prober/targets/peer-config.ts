/**
 * What a peer is: a configured name, how to reach it, and the per-peer era policy. Pure.
 * The policy is intent bound to this exact peer, never a pattern.
 */

export interface StdioTarget {
  kind: 'stdio';
  command: string;
  args?: readonly string[];
  /** Added to the prober's own environment (PATH and the rest are inherited). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

export interface HttpTarget {
  kind: 'http';
  /** The MCP endpoint, http(s). */
  url: string;
  /** Extra request headers, e.g. Authorization. Names starting with `mcp-` are ignored: the prober owns those. */
  headers?: Readonly<Record<string, string>>;
}

export type PeerTarget = StdioTarget | HttpTarget;

export interface PeerPolicy {
  /** One validated `initialize` after an ambiguous answer (timeout, close, -32601, unrecognised body…). */
  allowLegacy: boolean;
  /** Fall back to the deprecated HTTP+SSE transport when the legacy `initialize` POST is refused. */
  allowHttpSse: boolean;
  /** One validated `initialize` after recognised legacy-only evidence, without `allowLegacy`. */
  legacyOnEvidence: boolean;
}

export interface PeerConfig extends Partial<PeerPolicy> {
  /** The configured name: it prefixes colliding tools, so it must not contain `/`. */
  name: string;
  target: PeerTarget;
}

export const DEFAULT_POLICY: Readonly<PeerPolicy> = { allowLegacy: false, allowHttpSse: false, legacyOnEvidence: true };

export function resolvePolicy(peer: PeerConfig): PeerPolicy {
  return {
    allowLegacy: peer.allowLegacy ?? DEFAULT_POLICY.allowLegacy,
    allowHttpSse: peer.allowHttpSse ?? DEFAULT_POLICY.allowHttpSse,
    legacyOnEvidence: peer.legacyOnEvidence ?? DEFAULT_POLICY.legacyOnEvidence,
  };
}

const PEER_NAME = /^[A-Za-z0-9_.:@-]{1,64}$/;

/** Why a peer name is unusable, or undefined when it is fine. */
export function findPeerNameProblem(name: string): string | undefined {
  if (name.includes('/')) return `peer name "${name}" must not contain "/": it separates peer and tool in prefixed tool names`;
  if (/[*?[\]]/.test(name)) return `peer name "${name}" looks like a wildcard; name each peer exactly`;
  if (!PEER_NAME.test(name)) return `peer name "${name}" must be 1-64 characters of letters, digits and _ . : @ -`;
  return undefined;
}

/** Quotes one word so that splitCommandLine reads it back unchanged. */
function quoteWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The target as a user writes it: the URL, or `stdio:<command line>`. */
export function describeTarget(target: PeerTarget): string {
  if (target.kind === 'http') return target.url;
  const env = Object.entries(target.env ?? {}).map(([key, value]) => `${key}=${quoteWord(value)}`);
  return `stdio:${[...env, quoteWord(target.command), ...(target.args ?? []).map(quoteWord)].join(' ')}`;
}

function sortedRecord(record: Readonly<Record<string, string>> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The era cache key: everything that could make this a different server or a different intent.
 * stdio: command, args, env and cwd; HTTP: the full URL (not just the origin: one origin can host
 * endpoints of different eras). The policy is part of it, so changing a setting drops the era.
 * Header values are left out: they hold credentials, and a new token is not a new server.
 */
export function computePeerKey(peer: PeerConfig): string {
  const policy = resolvePolicy(peer);
  const where = peer.target.kind === 'http'
    ? { url: new URL(peer.target.url).href }
    : { command: peer.target.command, args: peer.target.args ?? [], env: sortedRecord(peer.target.env), cwd: peer.target.cwd ?? null };
  return JSON.stringify({ kind: peer.target.kind, ...where, policy });
}
