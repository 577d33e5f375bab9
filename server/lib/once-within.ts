/**
 * Remembers values for a while, to accept each one once: a relay header replayed within its window
 * is refused. Memory is bounded: past `max` values the oldest is forgotten first, which can only
 * matter for one still inside its window while more than `max` arrived within that window.
 */
export class OnceWithin {
  /** Value → when it may be forgotten; insertion order is expiry order, since every value lives as long. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  /** True the first time `value` is offered within `ttlMs` of `now`, false for a repeat. */
  first(value: string, now: number): boolean {
    for (const [old, until] of this.seen) {
      if (until > now && this.seen.size < this.max) break;
      this.seen.delete(old);
    }
    if (this.seen.has(value)) return false;
    this.seen.set(value, now + this.ttlMs);
    return true;
  }
}
