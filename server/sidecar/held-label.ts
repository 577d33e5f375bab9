import { MAX_LABEL_CHARS } from '../protocol/classified-message.js';

/**
 * A method or version as it may be held until its message is counted. A label longer than
 * `MAX_LABEL_CHARS` is counted as `other` whatever follows, so one character past the limit keeps
 * it folded while a client can no longer make the meter hold a megabyte per entry.
 */
export function heldLabel(label: string): string {
  if (label.length <= MAX_LABEL_CHARS + 1) return label;
  // V8 keeps a slice as a view into the whole string; the round trip makes an exact, standalone copy.
  return JSON.parse(JSON.stringify(label.slice(0, MAX_LABEL_CHARS + 1))) as string;
}
