import { MAX_LABEL_CHARS } from '../protocol/classified-message.js';

/** A counter held by reference, so a hit costs one map lookup. */
interface Weight {
  n: number;
}

/**
 * Which values of one free-text label (a method, a version, a caller) are counted under their own
 * name, out of a bound of `cap` unknown values; the rest are counted as `other` by the caller.
 *
 * Admission was first come, first kept: a flood of junk values filled the cap once and every later
 * real value was `other` until a restart. Here the named values are the heaviest of recent windows:
 *
 * - a known value (a published protocol revision, an MCP method) is named by the tally without
 *   asking, and takes no room here;
 * - within a window, admitted values stay and newcomers are named while there is room; a refused
 *   newcomer is still counted (as `other`) and its weight estimated in a Misra-Gries summary of
 *   `cap` entries, which never over-counts and costs amortized O(1) per event;
 * - at the window's end (`roll`), a value not seen in it is released, and the next window's set is
 *   the `cap` heaviest of the values seen (their hits) and the refused ones (their estimates),
 *   an incumbent winning a tie.
 *
 * So a value seen once can never displace one that was counted in the window that just ended (its
 * estimate is at most 1, no more than any incumbent's hits): junk sent once per value, however much
 * of it, never turns a value with steady traffic (seen in every window) into `other`, while a
 * refused value heavier than the lightest incumbent gets its name at the next window. What it
 * cannot do is tell a *new* value's first events from junk in the window they arrive in: a value
 * that first comes while the room is full is `other` until it outweighs an incumbent or room frees
 * (junk seen last in one window is released at the end of the next). Memory: at most `cap`
 * admitted and `cap` refused entries, each a string of at most MAX_LABEL_CHARS characters.
 */
export class HeavyLabels {
  private admitted = new Map<string, Weight>();
  private refused = new Map<string, Weight>();

  constructor(private readonly cap: number) {}

  /**
   * True when the value is counted under its own name; false means `other`. Known values (a
   * published revision, an MCP method) are never asked: they are always named and take no room.
   */
  admit(value: string): boolean {
    const weight = this.admitted.get(value);
    if (weight !== undefined) {
      weight.n += 1;
      return true;
    }
    if (value.length > MAX_LABEL_CHARS) {
      // Never named whatever its weight: not worth a slot in the summary either.
      return false;
    }
    if (this.admitted.size < this.cap) {
      this.admitted.set(value, { n: 1 });
      return true;
    }
    this.refuse(value);
    return false;
  }

  private refuse(value: string): void {
    const weight = this.refused.get(value);
    if (weight !== undefined) {
      weight.n += 1;
      return;
    }
    if (this.refused.size < this.cap) {
      this.refused.set(value, { n: 1 });
      return;
    }
    // Misra-Gries: a newcomer to a full summary takes one from every entry (and from itself). Each
    // decrement undoes one earlier increment, so the work is amortized O(1) per refused event.
    for (const [held, w] of this.refused) if (--w.n === 0) this.refused.delete(held);
  }

  /** Ends a window: releases the values not seen in it and lets heavier refused values in. */
  roll(): void {
    for (const [value, weight] of this.admitted) if (weight.n === 0) this.admitted.delete(value);
    if (this.refused.size > 0) this.promote();
    for (const weight of this.admitted.values()) weight.n = 0;
  }

  private promote(): void {
    const candidates = [...this.refused].sort((a, b) => b[1].n - a[1].n);
    this.refused = new Map();
    // Sorted only when a candidate must displace someone: once a minute at most, and only when a cap was hit.
    let lightest: [string, Weight][] | undefined;
    let next = 0;
    for (const [value, estimate] of candidates) {
      if (this.admitted.size < this.cap) {
        this.admitted.set(value, { n: 0 });
        continue;
      }
      lightest ??= [...this.admitted].sort((a, b) => a[1].n - b[1].n);
      const incumbent = lightest[next];
      // Strictly heavier only: a tie keeps the incumbent, so an estimate of 1 never displaces a value seen.
      if (incumbent === undefined || estimate.n <= incumbent[1].n) return;
      this.admitted.delete(incumbent[0]);
      this.admitted.set(value, { n: 0 });
      next += 1;
    }
  }

  /** Distinct unknown values named now. */
  get size(): number {
    return this.admitted.size;
  }
}
