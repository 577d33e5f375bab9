import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { capText } from '../../server/protocol/cap-text.js';

describe('capText', () => {
  test('keeps a short text as it is and cuts a long one to exactly its first characters', () => {
    expect(capText('ide', 128)).toBe('ide');
    const long = `é${'x'.repeat(300)}"\\`;
    expect(capText(long, 128)).toBe(long.slice(0, 128));
  });

  test('a cut text does not keep the long original alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const held: string[] = [];
    // Each original is built afresh, as parsing a client's body would, and dropped at once.
    for (let n = 0; n < 100; n += 1) held.push(capText(JSON.parse(JSON.stringify(`${n}:${'n'.repeat(1_000_000)}`)) as string, 128));
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(held.every((text) => text.length === 128)).toBe(true);
    // Kept as slices, the 100 originals would stay alive: about 100 MB.
    expect(grown).toBeLessThan(20 * 1024 * 1024);
  });
});
