/**
 * Where a server routes a request-target, so the sidecar decides on the path the server will serve,
 * not on the bytes the client chose. Measured against the official SDK servers behind Node's HTTP
 * server: Web-standard handlers route by the WHATWG URL, which resolves dot segments (`/./mcp`,
 * `/x/../mcp`, `/%2e/mcp`) and drops a fragment; Express drops the fragment and takes an
 * absolute-form target (`http://host/mcp`) by its path. Both readings are applied here: a path
 * placed where no server routes it is only judged where it might have been served, which refuses
 * nothing a server would serve. Express also routes without regard to case and with a trailing
 * slash; the prefix match (path-mapping.ts) allows for both. Servers that decode the path before
 * routing (Starlette, under the Python SDK) reach `/mcp` from `/%6Dcp`: percent-encoded unreserved
 * characters are decoded (RFC 3986 §6.2.2.2 makes them the same path). The proxy forwards the
 * placed target, so what was judged is what the server receives.
 */

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A target the URL parser would answer unchanged: a path and an optional non-empty query of
 * characters it neither decodes nor encodes nor resolves (no `.`, `%`, `\`, `'`, `#`, spaces or
 * non-ASCII). Nearly every request-target is one, and this test costs a fraction of a parse.
 */
const ALREADY_PLACED = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@/]*(?:\?[A-Za-z0-9\-_~!$&()*+,;=:@/?]+)?$/;

/** The path and query the request-target routes to, or undefined when it names no path (`*`, authority-form). */
export function placeRequestTarget(target: string): string | undefined {
  if (ALREADY_PLACED.test(target)) return target;
  let url: URL;
  try {
    // Prefixed with an origin so a target starting `//` stays a path, as Node hands it to the server.
    if (target.startsWith('/')) url = new URL(`http://sidecar.invalid${target}`);
    else if (ABSOLUTE_FORM.test(target)) url = new URL(target);
    else return undefined;
  } catch {
    return undefined;
  }
  return decodeUnreserved(url.pathname) + url.search;
}

/** `%41` → `A`, and so on for every unreserved character; other escapes stay as they are. */
const ENCODED = /%[0-9A-Fa-f]{2}/g;

function decodeUnreserved(pathname: string): string {
  if (!pathname.includes('%')) return pathname;
  return pathname.replace(ENCODED, (escape) => {
    const code = Number.parseInt(escape.slice(1), 16);
    const char = String.fromCharCode(code);
    return UNRESERVED.test(char) ? char : escape;
  });
}
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
