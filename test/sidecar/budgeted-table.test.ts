import { describe, expect, test } from 'vitest';
import { BudgetedTable, type DropReason } from '../../server/sidecar/budgeted-table.js';

const sizeOf = (value: { text: string }) => value.text.length;

describe('BudgetedTable', () => {
  test('pushes out the least recently used entries when the byte budget is full, and counts them apart from the entry cap', () => {
    const dropped: [string, DropReason][] = [];
    const table = new BudgetedTable<{ text: string }>({ max: 3, maxBytes: 100, sizeOf, onDrop: (_v, key, reason) => dropped.push([key, reason]) });
    table.set('a', { text: 'x'.repeat(40) });
    table.set('b', { text: 'x'.repeat(40) });
    table.set('c', { text: 'x'.repeat(40) });
    expect(table.has('a')).toBe(false);
    expect(table.heldBytes).toBe(80);
    expect(table.evictedForBytes).toBe(1);
    table.set('d', { text: 'x' });
    table.set('e', { text: 'x' });
    // The fourth entry pushes one out by the entry cap, not by bytes.
    expect(table.size).toBe(3);
    expect(table.evictedForBytes).toBe(1);
    expect(dropped).toEqual([['a', 'evict'], ['b', 'evict']]);
  });

  test('an entry larger than the whole budget is dropped at once and counted', () => {
    const dropped: string[] = [];
    const table = new BudgetedTable<{ text: string }>({ max: 10, maxBytes: 10, sizeOf, onDrop: (_v, key) => dropped.push(key) });
    table.set('big', { text: 'x'.repeat(11) });
    expect(table.size).toBe(0);
    expect(table.evictedForBytes).toBe(1);
    expect(dropped).toEqual(['big']);
  });
});
