import { MAX_LABEL_CHARS } from '../protocol/classified-message.js';

/**
 * A method or version as it may be held until its message is counted. A label longer than
 * `MAX_LABEL_CHARS` is counted as `other` whatever follows, so one character past the limit keeps
 * it folded while a client can no longer make the meter hold a megabyte per entry.
 */
export function heldLabel(label: string): string {
  return label.length > MAX_LABEL_CHARS + 1 ? label.slice(0, MAX_LABEL_CHARS + 1) : label;
}
