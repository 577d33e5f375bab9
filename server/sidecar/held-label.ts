import { capText } from '../protocol/cap-text.js';
import { MAX_LABEL_CHARS } from '../protocol/classified-message.js';

/**
 * A method or version as it may be held until its message is counted. A label longer than
 * `MAX_LABEL_CHARS` is counted as `other` whatever follows, so one character past the limit keeps
 * it folded while a client can no longer make the meter hold a megabyte per entry.
 */
export function heldLabel(label: string): string {
  return capText(label, MAX_LABEL_CHARS + 1);
}
