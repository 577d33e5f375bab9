import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { MAX_LABEL_CHARS } from '../../server/protocol/classified-message.js';
import { heldLabel } from '../../server/sidecar/held-label.js';

describe('heldLabel', () => {
  test('keeps a label up to one character past the counted limit as it is', () => {
    expect(heldLabel('tools/call')).toBe('tools/call');
    const justOver = 'a'.repeat(MAX_LABEL_CHARS + 1);
    expect(heldLabel(justOver)).toBe(justOver);
  });

  test('cuts a longer label to one character past the limit, so it is still counted as other', () => {
    const held = heldLabel('b'.repeat(1_000_000));
    expect(held).toBe('b'.repeat(MAX_LABEL_CHARS + 1));
    expect(held.length).toBeGreaterThan(MAX_LABEL_CHARS);
  });

  test('a cut label does not keep the long label it was cut from alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const held: string[] = [];
    // Each long label is built afresh, as parsing a client's line would, and dropped at once.
    for (let n = 0; n < 100; n += 1) held.push(heldLabel(JSON.parse(JSON.stringify(`${n}:${'c'.repeat(1_000_000)}`)) as string));
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(held.every((label) => label.length === MAX_LABEL_CHARS + 1)).toBe(true);
    // 100 labels of a megabyte each would be 100 MB; their 129-character cuts are a few kilobytes.
    expect(grown).toBeLessThan(20 * 1024 * 1024);
  });
});
