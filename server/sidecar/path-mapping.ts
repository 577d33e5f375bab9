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

function stripPrefix(path: string, prefix: string): string | undefined {
  if (prefix === '') return path;
  if (!path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  if (rest === '' || rest.startsWith('?')) return `/${rest}`;
  return rest.startsWith('/') ? rest : undefined;
}

/** The upstream path for a public path; paths outside the public prefix pass unchanged. */
export function toUpstreamPath(path: string, mapping: PathMapping): string {
  const rest = stripPrefix(path, mapping.publicPrefix);
  if (rest === undefined) return path;
  return mapping.upstreamPrefix === '' ? rest : `${mapping.upstreamPrefix}${rest === '/' ? '' : rest}` || '/';
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
  const rest = stripPrefix(resolved.pathname, mapping.upstreamPrefix);
  if (rest === undefined) return data;
  const path = `${mapping.publicPrefix}${rest === '/' && mapping.publicPrefix !== '' ? '' : rest}${resolved.search}`;
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(data.trim());
  return !absolute && !prefixesDiffer(mapping) ? data : path;
}
