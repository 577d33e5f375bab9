/**
 * JSON text with Python's non-standard literals (`NaN`, `Infinity`, `-Infinity`) written as `null`,
 * or undefined when the text holds none outside strings. Pure. Python's `json` module (and so the
 * Python SDK's servers) reads those literals as numbers, where `JSON.parse` refuses the text: read
 * this way, a body is classified as the server that serves it reads it. Only the values change,
 * never the structure, so what names the era (method, `_meta`, session) reads the same.
 */
const LITERAL = /-?Infinity|NaN/y;

export function nonFiniteAsNull(text: string): string | undefined {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    // Only a literal's first character: `N`, `I` or the `-` before `Infinity`.
    if (c !== 0x4e && c !== 0x49 && c !== 0x2d) continue;
    LITERAL.lastIndex = i;
    const match = LITERAL.exec(text);
    if (match === null) continue;
    out += `${text.slice(from, i)}null`;
    i += match[0].length - 1;
    from = i + 1;
  }
  return from === 0 ? undefined : out + text.slice(from);
}
