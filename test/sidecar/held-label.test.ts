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
});
