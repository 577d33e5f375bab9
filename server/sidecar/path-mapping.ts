/**
 * Maps request paths between the public side of the sidecar and the upstream, when a deployment
 * puts a different path prefix in front of the upstream's own.
 */
export interface PathMapping {
  /** Prefix the public side uses ('' for none). */
  publicPrefix: string;
  /** The upstream URL's own path prefix ('' for none). */
  upstreamPrefix: string;
}

/**
 * The part of `pathname` under `prefix` ('' for the prefix itself), or undefined outside it. The
 * prefix matches without regard to case, as Express routes (`/MCP` reaches an app's `/mcp`).
 */
function underPrefix(pathname: string, prefix: string): string | undefined {
  // The root stands for the prefix itself when there is no prefix: '/' ↔ '/mcp'.
  if (prefix === '') return pathname === '/' ? '' : pathname;
  const head = pathname.slice(0, prefix.length);
  if (head !== prefix && head.toLowerCase() !== prefix.toLowerCase()) return undefined;
  if (pathname.length === prefix.length) return '';
  return pathname.charCodeAt(prefix.length) === 0x2f ? pathname.slice(prefix.length) : undefined;
}

function splitQuery(path: string): [string, string] {
  const at = path.indexOf('?');
  return at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at)];
}

function join(prefix: string, rest: string): string {
  return `${prefix}${rest}` || '/';
}

/** The upstream path for a public path; paths outside the public prefix pass unchanged. */
export function toUpstreamPath(path: string, mapping: PathMapping): string {
  if (!prefixesDiffer(mapping)) return path;
  const [pathname, query] = splitQuery(path);
  const rest = underPrefix(pathname, mapping.publicPrefix);
  return rest === undefined ? path : join(mapping.upstreamPrefix, rest) + query;
}

/**
 * The target the server receives for a placed public path: under the public prefix, the upstream's
 * prefix as configured followed by the rest (so `/MCP` reaches a server that routes by case as
 * `/mcp`, as it was judged); elsewhere the placed path itself.
 */
export function toUpstreamTarget(placed: string, mapping: PathMapping): string {
  const [pathname, query] = splitQuery(placed);
  const rest = underPrefix(pathname, mapping.publicPrefix);
  if (rest === undefined) return placed;
  // The common case: already written as the server's own prefix, nothing to build.
  if (!prefixesDiffer(mapping) && pathname.startsWith(mapping.upstreamPrefix)) return placed;
  return join(mapping.upstreamPrefix, rest) + query;
}

/** True when the path (query allowed) is the public prefix or under it. */
export function isUnderPublicPrefix(path: string, mapping: PathMapping): boolean {
  return underPrefix(splitQuery(path)[0], mapping.publicPrefix) !== undefined;
}

/** True when upstream URLs must be rewritten before the client sees them. */
export function prefixesDiffer(mapping: PathMapping): boolean {
  return mapping.publicPrefix !== mapping.upstreamPrefix;
}

/**
 * Rewrites the data of an HTTP+SSE `endpoint` event (a relative or absolute URI) so the client
 * POSTs through the sidecar. Answers the data unchanged when it points elsewhere.
 */
export function toPublicEndpoint(data: string, upstreamRequestUrl: URL, mapping: PathMapping): string {
  let resolved: URL;
  try {
    resolved = new URL(data.trim(), upstreamRequestUrl);
  } catch {
    return data;
  }
  if (resolved.origin !== upstreamRequestUrl.origin) return data;
  const rest = underPrefix(resolved.pathname, mapping.upstreamPrefix);
  if (rest === undefined) return data;
  const path = join(mapping.publicPrefix, rest) + resolved.search;
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(data.trim());
  return !absolute && !prefixesDiffer(mapping) ? data : path;
}
