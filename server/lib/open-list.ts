/** What an OpenList holds: its slot there, which only the list writes (-1 while it holds it not). */
export interface Listed {
  openSlot: number;
}

/**
 * The items open right now (exchanges passed on, say), for a shutdown to find them. Added and
 * removed once per request, so it must not feed the garbage collector: a `Set` churned this way
 * rehashes into a fresh table every few hundred entries, and each obsolete table keeps a link to
 * its successor and the entries it held. Once one obsolete table has been promoted to the old
 * generation, every later table and every request graph it holds survives the young collections
 * and is promoted too, until the next full collection. In the sidecar that multiplied the time
 * spent collecting garbage about six times (measured with --trace-gc under the closed-loop bench).
 * An array with each item's slot stored on the item allocates nothing per request and keeps no
 * reference to an item once it is removed. An item is in at most one list at a time.
 */
export class OpenList<T extends Listed> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  add(item: T): void {
    if (this.has(item)) return;
    item.openSlot = this.items.length;
    this.items.push(item);
  }

  has(item: T): boolean {
    return item.openSlot >= 0 && this.items[item.openSlot] === item;
  }

  /** Removes in constant time: the last item moves into the freed slot. Answers whether it was held. */
  delete(item: T): boolean {
    if (!this.has(item)) return false;
    const last = this.items.pop()!;
    if (last !== item) {
      this.items[item.openSlot] = last;
      last.openSlot = item.openSlot;
    }
    item.openSlot = -1;
    return true;
  }

  /** Empties the list and answers what it held, so the caller can act on each without the list changing under it. */
  takeAll(): T[] {
    const taken = this.items.splice(0);
    for (const item of taken) item.openSlot = -1;
    return taken;
  }

  /** The items held, in no particular order. Not to be changed while iterating. */
  values(): readonly T[] {
    return this.items;
  }
}
