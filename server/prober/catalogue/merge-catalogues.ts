/**
 * Merges the tool lists of several peers under a declared collision policy.
 * Pure. Peers are taken in configured-name order and tools in name order, so the result never
 * depends on which peer answered first. Nothing is ever overwritten silently.
 */
import { compareNames, type ToolInfo } from './collect-tools.js';
import { findPeerNameProblem } from '../targets/peer-config.js';

export type CollisionPolicy = 'prefix' | 'reject';
export const COLLISION_POLICIES: readonly CollisionPolicy[] = ['prefix', 'reject'];

export interface PeerTools {
  /** The configured peer name, never the server's self-reported `serverInfo.name`. */
  peer: string;
  tools: readonly ToolInfo[];
}

export interface CatalogueEntry {
  /** The name the merged catalogue exposes: the tool's own, or `<peer>/<tool>` when it collided. */
  name: string;
  peer: string;
  tool: string;
  description: string | null;
}

export interface Collision {
  name: string;
  /** Every tool that would take the name, in peer order. */
  claimants: { peer: string; tool: string }[];
}

export type CatalogueResult =
  | { ok: true; policy: CollisionPolicy; tools: CatalogueEntry[] }
  | { ok: false; policy: CollisionPolicy; error: string; collisions: Collision[] };

function findCollisions(entries: readonly CatalogueEntry[]): Collision[] {
  const byName = new Map<string, CatalogueEntry[]>();
  for (const entry of entries) byName.set(entry.name, [...(byName.get(entry.name) ?? []), entry]);
  return [...byName.entries()]
    .filter(([, claimants]) => claimants.length > 1)
    .map(([name, claimants]) => ({ name, claimants: claimants.map(({ peer, tool }) => ({ peer, tool })) }));
}

function describeOffered(collisions: readonly Collision[]): string {
  return collisions.map((c) => `tool "${c.name}" is offered by both ${c.claimants.map((p) => `peer "${p.peer}"`).join(' and ')}`).join('; ');
}

function describeShadowed(collisions: readonly Collision[]): string {
  const claimant = (p: { peer: string; tool: string }) => `peer "${p.peer}"'s tool "${p.tool}"`;
  return collisions.map((c) => `the name "${c.name}" would stand for both ${c.claimants.map(claimant).join(' and ')}`).join('; ');
}

function refuse(policy: CollisionPolicy, error: string, collisions: Collision[] = []): CatalogueResult {
  return { ok: false, policy, error, collisions };
}

export function mergeCatalogues(peers: readonly PeerTools[], policy: CollisionPolicy): CatalogueResult {
  const sorted = [...peers].sort((a, b) => compareNames(a.peer, b.peer));
  for (const [i, { peer, tools }] of sorted.entries()) {
    const problem = findPeerNameProblem(peer);
    if (problem !== undefined) return refuse(policy, problem);
    if (sorted[i + 1]?.peer === peer) return refuse(policy, `two peers are named "${peer}"`);
    if (new Set(tools.map((t) => t.name)).size !== tools.length) return refuse(policy, `peer "${peer}" lists a tool name more than once`);
  }
  const bare = sorted.flatMap(({ peer, tools }) =>
    [...tools].sort((a, b) => compareNames(a.name, b.name)).map((t) => ({ name: t.name, peer, tool: t.name, description: t.description })),
  );
  const collisions = findCollisions(bare);
  if (collisions.length > 0 && policy === 'reject') {
    return refuse(policy, `${describeOffered(collisions)} (collision policy "reject")`, collisions);
  }
  const colliding = new Set(collisions.map((c) => c.name));
  const exposed = bare.map((entry) => (colliding.has(entry.tool) ? { ...entry, name: `${entry.peer}/${entry.tool}` } : entry));
  // A prefixed name can meet a tool already called that: peer "a"'s colliding "c" becomes "a/c",
  // which another peer may list as a tool of its own.
  const after = findCollisions(exposed);
  if (after.length > 0) return refuse(policy, `after prefixing, ${describeShadowed(after)}`, after);
  return { ok: true, policy, tools: exposed.sort((a, b) => compareNames(a.name, b.name)) };
}
