import { LRUCache } from 'lru-cache';

export type DropReason = 'evict' | 'expire' | 'set';

export interface BudgetedTableOptions<V extends {}> {
  /** Entries kept at most. */
  max: number;
  /** Bytes kept at most, as `sizeOf` estimates them. */
  maxBytes: number;
  /** Estimated bytes one entry holds, its key included. */
  sizeOf: (value: V, key: string) => number;
  ttlMs?: number;
  /** An entry left without being taken: pushed out (by either cap), expired, or replaced under its key. */
  onDrop?: (value: V, key: string, reason: DropReason) => void;
}

/**
 * A least-recently-used table bounded in entries and in bytes. Evictions the byte budget forced
 * (beyond what the entry cap alone would have) are counted, so a table squeezed by large entries
 * shows on /healthz instead of silently forgetting.
 */
export class BudgetedTable<V extends {}> {
  private readonly cache: LRUCache<string, V>;
  private readonly max: number;
  private readonly maxBytes: number;
  private readonly sizeOf: (value: V, key: string) => number;
  private readonly onDrop: ((value: V, key: string, reason: DropReason) => void) | undefined;
  private evictions = 0;
  private bytesEvictions = 0;

  constructor(options: BudgetedTableOptions<V>) {
    this.max = options.max;
    this.maxBytes = options.maxBytes;
    this.sizeOf = options.sizeOf;
    this.onDrop = options.onDrop;
    this.cache = new LRUCache<string, V>({
      max: options.max,
      maxSize: options.maxBytes,
      sizeCalculation: (value, key) => Math.max(1, Math.ceil(this.sizeOf(value, key))),
      ...(options.ttlMs === undefined ? {} : { ttl: options.ttlMs, ttlAutopurge: true }),
      dispose: (value, key, reason) => {
        if (reason === 'evict') this.evictions += 1;
        if (reason === 'evict' || reason === 'expire' || reason === 'set') this.onDrop?.(value, key, reason);
      },
    });
  }

  set(key: string, value: V): void {
    if (this.sizeOf(value, key) > this.maxBytes) {
      // Larger than the whole budget: it cannot be kept at all, and is dropped as if evicted at once.
      this.bytesEvictions += 1;
      const old = this.cache.peek(key);
      if (old !== undefined) {
        this.cache.delete(key);
        this.onDrop?.(old, key, 'set');
      }
      this.onDrop?.(value, key, 'evict');
      return;
    }
    const before = this.evictions;
    const entryCapEvicts = !this.cache.has(key) && this.cache.size >= this.max ? 1 : 0;
    this.cache.set(key, value);
    this.bytesEvictions += Math.max(0, this.evictions - before - entryCapEvicts);
  }

  get(key: string): V | undefined {
    return this.cache.get(key);
  }

  peek(key: string): V | undefined {
    return this.cache.peek(key);
  }

  has(key: string): boolean {
    return this.cache.has(key);
  }

  delete(key: string): void {
    this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
  }

  entries(): [string, V][] {
    return [...this.cache.entries()];
  }

  values(): V[] {
    return [...this.cache.values()];
  }

  get size(): number {
    return this.cache.size;
  }

  /** Bytes held now, as estimated. */
  get heldBytes(): number {
    return this.cache.calculatedSize;
  }

  get budgetBytes(): number {
    return this.maxBytes;
  }

  /** Entries pushed out because the byte budget was full. */
  get evictedForBytes(): number {
    return this.bytesEvictions;
  }
}
