/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1). They are the only
 * headers the proxy does not pass on; Node frames the next hop itself.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
/** Lengths of those names: a name of any other length cannot be one, and is passed on without lower-casing it. */
const HOP_BY_HOP_LENGTH = new Set([...HOP_BY_HOP].map((name) => name.length));
const CONNECTION = 'connection';

/**
 * Names a `Connection` header lists beyond the standard hop-by-hop ones (lower case), or undefined
 * when it lists none: the proxy leaves those out of what it passes on (RFC 9110 §7.6.1), so no
 * decision may read them either. Nearly every request has none, and costs one scan of its names.
 */
export function connectionNamedHeaders(raw: readonly string[]): Set<string> | undefined {
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== CONNECTION.length || name.toLowerCase() !== CONNECTION) continue;
    for (const token of (raw[i + 1] ?? '').split(',')) {
      const lower = token.trim().toLowerCase();
      // `Connection: keep-alive` names a header already dropped: the common case lower-cases no more names.
      if (lower !== '' && !HOP_BY_HOP.has(lower)) (named ??= new Set()).add(lower);
    }
  }
  return named;
}

/**
 * Filters a raw header list (name, value, name, value, …) as Node delivers it, keeping case, order
 * and repeats of everything end-to-end. `drop` names further headers to leave out (lower case).
 * Runs twice per proxied request, so names are only lower-cased when their length could match, and
 * a list with nothing to leave out is answered as it is, not copied: never change what it answers.
 */
export function forwardHeaders(raw: readonly string[], drop?: ReadonlySet<string>): readonly string[] {
  const named = connectionNamedHeaders(raw);
  const everyName = named !== undefined || drop !== undefined;
  // Built only from the first header left out: until then, what is kept is `raw` itself.
  let out: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (everyName || HOP_BY_HOP_LENGTH.has(name.length)) {
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower) || named?.has(lower) || drop?.has(lower)) {
        out ??= raw.slice(0, i);
        continue;
      }
    }
    out?.push(name, raw[i + 1] ?? '');
  }
  if (out !== undefined) return out;
  // An odd-length list (never from Node) is evened out, as a copy would have done.
  return raw.length % 2 === 0 ? raw : [...raw, ''];
}
