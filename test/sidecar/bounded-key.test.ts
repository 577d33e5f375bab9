import { describe, expect, test } from 'vitest';
import { boundedId, boundedKey, MAX_KEY_CHARS } from '../../server/sidecar/bounded-key.js';

describe('boundedKey', () => {
  test('keeps short text as it is and maps long text to the same short digest every time', () => {
    expect(boundedKey('session:s-1')).toBe('session:s-1');
    const long = 'x'.repeat(MAX_KEY_CHARS + 1);
    expect(boundedKey(long)).toBe(boundedKey(`${'x'.repeat(MAX_KEY_CHARS)}x`));
    expect(boundedKey(long).length).toBeLessThanOrEqual(MAX_KEY_CHARS);
    expect(boundedKey(long)).not.toBe(boundedKey(`${long}y`));
  });

  test('leaves numeric ids alone', () => {
    expect(boundedId(42)).toBe(42);
    expect(boundedId('a'.repeat(900_000))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
