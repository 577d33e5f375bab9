/**
 * Whether any JSON object in a text names the same key twice. Pure; never throws.
 * `JSON.parse` keeps the last of repeated keys, other parsers the first or refuse the text, so a
 * body with a repeated key has no single reading: one parser may find a modern `_meta` where the
 * server's finds none. Keys are compared as parsed, so `"\u006dethod"` repeats `"method"`.
 * Meant for text `JSON.parse` accepted; anything it cannot follow counts as repeated, the safe
 * answer for a judgement that admits only what it has shown.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

export function hasRepeatedKey(text: string): boolean {
  // One set of keys per open container; null for an array.
  const open: (Set<string> | null)[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      i += 1;
      let escaped = false;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) {
          escaped = true;
          i += 2;
          continue;
        }
        if (d === QUOTE) break;
        i += 1;
      }
      if (i >= n) return true;
      i += 1;
      const keys = open[open.length - 1];
      if (keys === undefined || keys === null) continue;
      // A key is a string followed, past any whitespace, by a colon.
      let j = i;
      while (j < n && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d)) j += 1;
      if (text.charCodeAt(j) !== COLON) continue;
      let key: string;
      if (escaped) {
        try {
          key = JSON.parse(text.slice(start, i)) as string;
        } catch {
          return true;
        }
      } else {
        key = text.slice(start + 1, i - 1);
      }
      if (keys.has(key)) return true;
      keys.add(key);
      continue;
    }
    if (c === LBRACE) open.push(new Set());
    else if (c === LBRACKET) open.push(null);
    else if (c === RBRACE || c === RBRACKET) open.pop();
    i += 1;
  }
  return false;
}
