/**
 * Reads probe targets as a user writes them: an http(s) URL or `stdio:<command line>`, optionally
 * named as `name=<target>`. Pure. Unnamed targets are named after their host or command, made
 * unique by position (`-2`, `-3`…), so prefixed tool names are the same on every run.
 */
import { findPeerNameProblem, type PeerTarget } from './peer-config.js';
import { splitCommandLine } from './split-command-line.js';

export type ParsedTarget = { ok: true; name: string | undefined; target: PeerTarget } | { ok: false; error: string };

const NAMED = /^([^=:\s]+)=(.+)$/s;

/** Reads a target without a name prefix. */
export function parseTargetText(text: string): { ok: true; target: PeerTarget } | { ok: false; error: string } {
  if (text.startsWith('stdio:')) {
    const split = splitCommandLine(text.slice('stdio:'.length));
    if (!split.ok) return { ok: false, error: `${text}: ${split.error}` };
    const target: PeerTarget = { kind: 'stdio', command: split.command, args: split.args };
    return { ok: true, target: Object.keys(split.env).length > 0 ? { ...target, env: split.env } : target };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: `${text}: expected an http(s) URL or stdio:<command line>` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: `${text}: only http and https URLs can be probed` };
  if (/[*?]/.test(decodeURIComponent(url.hostname))) return { ok: false, error: `${text}: wildcards are not allowed; name each peer exactly` };
  return { ok: true, target: { kind: 'http', url: url.href } };
}

/** Reads `[name=]<target>`. */
export function parseTarget(text: string): ParsedTarget {
  const named = NAMED.exec(text);
  const name = named?.[1];
  if (name !== undefined) {
    const problem = findPeerNameProblem(name);
    if (problem !== undefined) return { ok: false, error: problem };
  }
  const parsed = parseTargetText(named?.[2] ?? text);
  return parsed.ok ? { ok: true, name, target: parsed.target } : parsed;
}

/** The name an unnamed target gets: its host (and port), or its command's file name. */
export function defaultPeerName(target: PeerTarget): string {
  const raw = target.kind === 'http' ? new URL(target.url).host : (target.command.split(/[\\/]/).pop() ?? target.command);
  const cleaned = raw.replace(/[^A-Za-z0-9_.:@-]/g, '_').slice(0, 60);
  return cleaned === '' ? 'peer' : cleaned;
}

/** Names every target: given names are kept, the others derived and suffixed until unique. */
export function namePeers(targets: readonly { name: string | undefined; target: PeerTarget }[]): { ok: true; names: string[] } | { ok: false; error: string } {
  const given = targets.map((t) => t.name).filter((n): n is string => n !== undefined);
  const duplicate = given.find((n, i) => given.indexOf(n) !== i);
  if (duplicate !== undefined) return { ok: false, error: `two peers are named "${duplicate}"` };
  const taken = new Set(given);
  const names = targets.map(({ name, target }) => {
    if (name !== undefined) return name;
    const base = defaultPeerName(target);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
    taken.add(candidate);
    return candidate;
  });
  return { ok: true, names };
}
