/**
 * The one place a relay's URL is built: the origin of a node URL the fleet sealed (in a session
 * id, a channel token or an input request id), and a path and query this node placed itself. The
 * client's request-target never goes into it as sent, so a relay cannot be steered off the MCP
 * endpoint (`/mcp/../echo`) or to another host (`//evil/`). Undefined when either part will not do.
 */
export function nodeRelayUrl(node: string, pathAndQuery: string): URL | undefined {
  let origin: string;
  try {
    const base = new URL(node);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') return undefined;
    if (base.username !== '' || base.password !== '') return undefined;
    origin = base.origin;
  } catch {
    return undefined;
  }
  if (!pathAndQuery.startsWith('/') || pathAndQuery.startsWith('//') || pathAndQuery.includes('#')) return undefined;
  let url: URL;
  try {
    url = new URL(pathAndQuery, origin);
  } catch {
    return undefined;
  }
  // Only a path already in its routed form: dot segments or anything the URL parser rewrites would
  // send the relay somewhere the sending node did not decide on.
  if (url.origin !== origin || url.pathname + url.search !== pathAndQuery) return undefined;
  return url;
}
