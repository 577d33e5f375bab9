/** Longest name kept, in characters (code points), like every other label a client chooses. */
export const MAX_CLIENT_NAME_CHARS = 128;

/** Characters that break a line wherever the name is shown: become one space. */
const LINE_BREAKING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/**
 * Characters that are not shown but act: control and format characters (bidirectional overrides and
 * zero-width ones among them, which can make a name read as another) and lone surrogates.
 */
const UNSHOWN = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/**
 * A `client_name` as it may be stored and shown: a string, its control and format characters
 * removed, runs of white space one space, trimmed and cut to 128 characters; undefined when nothing
 * is left or it is no string. It is the client's own text, shown on the dashboard and in alerts. Pure.
 */
export function cleanClientName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(LINE_BREAKING, ' ').replace(UNSHOWN, '').replace(/\s+/g, ' ').trim();
  const capped = Array.from(cleaned).slice(0, MAX_CLIENT_NAME_CHARS).join('').trimEnd();
  return capped === '' ? undefined : capped;
}
