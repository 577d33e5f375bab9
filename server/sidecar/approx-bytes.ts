/** What one table slot costs beyond its strings: the cache's bookkeeping and the objects' headers. */
const ENTRY_OVERHEAD = 256;
const FIELD_BYTES = 16;

/**
 * An estimate of the bytes a table entry holds: its key and every string in it at two bytes a
 * character, plus a fixed cost per entry and per field. Walks plain objects two levels deep, which
 * is all a meter entry nests; functions count as a field (a closure is shared, not copied).
 */
export function approxBytes(value: unknown, key: string): number {
  return ENTRY_OVERHEAD + 2 * key.length + sizeOf(value, 2);
}

function sizeOf(value: unknown, depth: number): number {
  if (typeof value === 'string') return FIELD_BYTES + 2 * value.length;
  if (typeof value !== 'object' || value === null || depth === 0) return FIELD_BYTES;
  let total = FIELD_BYTES;
  for (const field of Object.values(value)) total += sizeOf(field, depth - 1);
  return total;
}
