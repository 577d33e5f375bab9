/**
 * Finds where JSON values end without building them, checking them against the JSON grammar as
 * strictly as `JSON.parse` does. Pure. Anything it does not accept (malformed text, nesting
 * deeper than it keeps track of) answers `UNSURE`, and the caller hands the text to `JSON.parse`:
 * it never accepts text that `JSON.parse` would reject.
 * Strings are walked char by char, and a long one's rest crossed by one sticky regular expression:
 * a JS loop over char codes costs a few times the engine's own scan per char, but a call costs
 * more than walking a short key.
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

/** A run of string contents that needs no second look: no quote, backslash or control character. */
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
/** Chars of a string walked in JS before the rest of it is crossed by PLAIN_RUN: a call costs more than a short walk. */
const WALK_BEFORE_RUN = 24;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** End of the number literal starting at `i`, or UNSURE: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. */
function skipNumber(text: string, i: number): number {
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

/** Skips JSON values, keys and whitespace in one text, forward only. */
export class JsonSkipper {
  /** False when the last string crossed by `string` held no escape. */
  mayHaveEscape = false;

  constructor(readonly text: string) {}

  /** The first index at or after `i` that is not JSON whitespace (space, tab, LF, CR; nothing else). */
  whitespace(i: number): number {
    const { text } = this;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
      i += 1;
    }
  }

  /** End of the string literal opening at `i` (just past its closing quote), or UNSURE. */
  string(i: number): number {
    const { text } = this;
    const n = text.length;
    this.mayHaveEscape = false;
    let walked = 0;
    i += 1;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) return i + 1;
      if (c < 0x20) return UNSURE;
      if (c === BACKSLASH) {
        this.mayHaveEscape = true;
        const e = text.charCodeAt(i + 1);
        if (e === LOWER_U) {
          if (!(isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)) && isHex(text.charCodeAt(i + 5)))) return UNSURE;
          i += 6;
        } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2;
        } else {
          return UNSURE;
        }
        continue;
      }
      i += 1;
      walked += 1;
      if (walked === WALK_BEFORE_RUN) {
        // Stops at the next quote, backslash or control character (or the end), each handled above.
        PLAIN_RUN.lastIndex = i;
        PLAIN_RUN.test(text);
        i = PLAIN_RUN.lastIndex;
        walked = 0;
      }
    }
    return UNSURE;
  }

  /** End of a string, number, `true`, `false` or `null` starting at `i`, or UNSURE. */
  private scalar(i: number): number {
    const { text } = this;
    const c = text.charCodeAt(i);
    if (c === QUOTE) return this.string(i);
    if (c === MINUS || isDigit(c)) return skipNumber(text, i);
    if (c === 0x74) return text.startsWith('true', i) ? i + 4 : UNSURE;
    if (c === 0x66) return text.startsWith('false', i) ? i + 5 : UNSURE;
    if (c === 0x6e) return text.startsWith('null', i) ? i + 4 : UNSURE;
    return UNSURE;
  }

  /** Past `"key" :` and the whitespace after it, from the key's opening quote; UNSURE when that is not there. */
  private key(i: number): number {
    const { text } = this;
    if (text.charCodeAt(i) !== QUOTE) return UNSURE;
    const end = this.string(i);
    if (end === UNSURE) return UNSURE;
    const colon = this.whitespace(end);
    if (text.charCodeAt(colon) !== COLON) return UNSURE;
    return this.whitespace(colon + 1);
  }

  /**
   * End of the JSON value starting at `i` (which must not be whitespace), or UNSURE. Iterative, with
   * the open containers' closing brackets on a stack, so `[}` and `{]` are caught.
   */
  value(i: number): number {
    const { text } = this;
    const first = text.charCodeAt(i);
    if (first !== LBRACE && first !== LBRACKET) return this.scalar(i);
    const closers: number[] = [];
    for (;;) {
      // Here `i` is at the start of a value.
      const c = text.charCodeAt(i);
      if (c === LBRACE || c === LBRACKET) {
        if (closers.length === MAX_SKIP_DEPTH) return UNSURE;
        const closer = c === LBRACE ? RBRACE : RBRACKET;
        i = this.whitespace(i + 1);
        if (text.charCodeAt(i) !== closer) {
          closers.push(closer);
          if (closer === RBRACE) {
            i = this.key(i);
            if (i === UNSURE) return UNSURE;
          }
          continue;
        }
        i += 1;
      } else {
        i = this.scalar(i);
        if (i === UNSURE) return UNSURE;
      }
      // Here a value has just ended: close containers until one has a next member.
      for (;;) {
        const closer = closers[closers.length - 1];
        if (closer === undefined) return i;
        i = this.whitespace(i);
        const next = text.charCodeAt(i);
        if (next === closer) {
          closers.pop();
          i += 1;
          continue;
        }
        if (next !== COMMA) return UNSURE;
        i = this.whitespace(i + 1);
        if (closer === RBRACE) {
          i = this.key(i);
          if (i === UNSURE) return UNSURE;
        }
        break;
      }
    }
  }
}
