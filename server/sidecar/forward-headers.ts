/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1). They are the only
 * headers the proxy does not pass on; Node frames the next hop itself.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/**
 * Filters a raw header list (name, value, name, value, …) as Node delivers it, keeping case, order
 * and repeats of everything end-to-end. `drop` names further headers to leave out (lower case).
 */
export function forwardHeaders(raw: readonly string[], drop?: ReadonlySet<string>): string[] {
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    named ??= new Set();
    for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named?.has(name) || drop?.has(name)) continue;
    out.push(raw[i]!, raw[i + 1] ?? '');
  }
  return out;
}
