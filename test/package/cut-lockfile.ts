/**
 * A consumer project's package-lock.json cut from this repository's own: the packages `roots` need,
 * at the versions and places (hoisted or nested) the repository's lockfile gives them.
 *
 * Why: `npm ci` fills the npm cache with tarballs (found by integrity) but never asks the registry
 * for a package's metadata, so a fresh project cannot resolve version ranges with `--offline`. With
 * this lockfile it needs no resolving: every tarball it names is one the cache already holds.
 */

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  [field: string]: unknown;
}

export interface Lockfile {
  name: string;
  version: string;
  lockfileVersion: 3;
  requires: true;
  packages: Record<string, LockEntry>;
}

/** `node_modules/a/node_modules/b` → `node_modules/a`; a top-level package → the root (''). */
function parentOf(location: string): string {
  const at = location.lastIndexOf('node_modules/');
  return at <= 0 ? '' : location.slice(0, at - 1);
}

/** Where Node finds `name` from the package at `from`: its own node_modules, then each parent's. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let at = from; ; at = parentOf(at)) {
    const candidate = `${at === '' ? '' : `${at}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (at === '') return undefined;
  }
}

/**
 * Every package `roots` need, transitively, from `repoLock`. The root entry declares `dependencies`
 * (the consumer's own, at their locked versions); the dev flags are dropped, since what was a dev
 * package here (say `@types/express`) is a dependency of the consumer.
 */
export function cutLockfile(repoLock: { packages: Record<string, LockEntry> }, roots: readonly string[], dependencies: Record<string, string>, name = 'consumer'): Lockfile {
  const { packages } = repoLock;
  const kept = new Map<string, LockEntry>();
  const queue: string[] = [];
  for (const root of roots) {
    const location = locate(packages, '', root);
    if (location === undefined) throw new Error(`${root} is not in the repository's lockfile`);
    queue.push(location);
  }
  while (queue.length > 0) {
    const location = queue.pop()!;
    if (kept.has(location)) continue;
    const entry = packages[location]!;
    kept.set(location, entry);
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const dependency of Object.keys(wanted)) {
      const found = locate(packages, location, dependency);
      if (found !== undefined) queue.push(found);
      else if (entry.optionalDependencies?.[dependency] === undefined && entry.peerDependenciesMeta?.[dependency]?.optional !== true) {
        throw new Error(`${location} needs ${dependency}, which the repository's lockfile does not hold`);
      }
    }
  }
  const cut: Record<string, LockEntry> = { '': { name, version: '1.0.0', dependencies } };
  for (const location of [...kept.keys()].sort()) {
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = kept.get(location)!;
    cut[location] = entry;
  }
  return { name, version: '1.0.0', lockfileVersion: 3, requires: true, packages: cut };
}

/** The version the repository's lockfile installs at the top level for `name`. */
export function lockedVersion(repoLock: { packages: Record<string, LockEntry> }, name: string): string {
  const version = repoLock.packages[`node_modules/${name}`]?.version;
  if (version === undefined) throw new Error(`${name} is not in the repository's lockfile`);
  return version;
}
