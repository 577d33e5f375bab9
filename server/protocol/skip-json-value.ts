/**
 * Finds where one JSON value ends without building it, checking it against the JSON grammar as
 * strictly as `JSON.parse` does. Pure. Anything it does not accept (malformed text, nesting
 * deeper than it keeps track of) answers `UNSURE`, and the caller hands the text to `JSON.parse`:
 * it never accepts text that `JSON.parse` would reject.
 */

/** The answer for text this scanner does not vouch for. */
export const UNSURE = -1;

/** Containers nested deeper than this inside a skipped value are left to `JSON.parse`. */
export const MAX_SKIP_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_U = 0x75;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The first index at or after `i` that is not JSON whitespace (space, tab, LF, CR; nothing else). */
export function skipJsonWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i += 1;
  }
}

/** End of the string literal opening at `i` (just past its closing quote), or UNSURE. */
export function skipJsonString(text: string, i: number): number {
  const n = text.length;
  i += 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return UNSURE;
    if (c !== BACKSLASH) {
      i += 1;
      continue;
    }
    const e = text.charCodeAt(i + 1);
    if (e === LOWER_U) {
      if (!(isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)) && isHex(text.charCodeAt(i + 5)))) return UNSURE;
      i += 6;
    } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      i += 2;
    } else {
      return UNSURE;
    }
  }
  return UNSURE;
}

/** End of the number literal starting at `i`, or UNSURE: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. */
export function skipJsonNumber(text: string, i: number): number {
  if (text.charCodeAt(i) === MINUS) i += 1;
  const first = text.charCodeAt(i);
  if (first === ZERO) i += 1;
  else if (isDigit(first)) while (isDigit(text.charCodeAt(++i)));
  else return UNSURE;
  if (text.charCodeAt(i) === DOT) {
    if (!isDigit(text.charCodeAt(++i))) return UNSURE;
    while (isDigit(text.charCodeAt(++i)));
  }
  const e = text.charCodeAt(i);
  if (e === LOWER_E || e === UPPER_E) {
    const sign = text.charCodeAt(++i);
    if (sign === PLUS || sign === MINUS) i += 1;
    if (!isDigit(text.charCodeAt(i))) return UNSURE;
    while (isDigit(text.charCodeAt(++i)));
  }
  return i;
}

/** End of a string, number, `true`, `false` or `null` starting at `i`, or UNSURE. */
function skipScalar(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipJsonString(text, i);
  if (c === MINUS || isDigit(c)) return skipJsonNumber(text, i);
  if (c === 0x74) return text.startsWith('true', i) ? i + 4 : UNSURE;
  if (c === 0x66) return text.startsWith('false', i) ? i + 5 : UNSURE;
  if (c === 0x6e) return text.startsWith('null', i) ? i + 4 : UNSURE;
  return UNSURE;
}

/** Past `"key" :` and the whitespace after it, from the key's opening quote; UNSURE when that is not there. */
export function skipJsonKey(text: string, i: number): number {
  if (text.charCodeAt(i) !== QUOTE) return UNSURE;
  const end = skipJsonString(text, i);
  if (end === UNSURE) return UNSURE;
  const colon = skipJsonWhitespace(text, end);
  if (text.charCodeAt(colon) !== COLON) return UNSURE;
  return skipJsonWhitespace(text, colon + 1);
}

/**
 * End of the JSON value starting at `i` (which must not be whitespace), or UNSURE. Iterative, with
 * the open containers' closing brackets on a stack, so `[}` and `{]` are caught.
 */
export function skipJsonValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first !== LBRACE && first !== LBRACKET) return skipScalar(text, i);
  const closers: number[] = [];
  for (;;) {
    // Here `i` is at the start of a value.
    const c = text.charCodeAt(i);
    if (c === LBRACE || c === LBRACKET) {
      if (closers.length === MAX_SKIP_DEPTH) return UNSURE;
      const closer = c === LBRACE ? RBRACE : RBRACKET;
      i = skipJsonWhitespace(text, i + 1);
      if (text.charCodeAt(i) !== closer) {
        closers.push(closer);
        if (closer === RBRACE) {
          i = skipJsonKey(text, i);
          if (i === UNSURE) return UNSURE;
        }
        continue;
      }
      i += 1;
    } else {
      i = skipScalar(text, i);
      if (i === UNSURE) return UNSURE;
    }
    // Here a value has just ended: close containers until one has a next member.
    for (;;) {
      const closer = closers[closers.length - 1];
      if (closer === undefined) return i;
      i = skipJsonWhitespace(text, i);
      const next = text.charCodeAt(i);
      if (next === closer) {
        closers.pop();
        i += 1;
        continue;
      }
      if (next !== COMMA) return UNSURE;
      i = skipJsonWhitespace(text, i + 1);
      if (closer === RBRACE) {
        i = skipJsonKey(text, i);
        if (i === UNSURE) return UNSURE;
      }
      break;
    }
  }
}
