import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpenList, type Listed } from '../../server/lib/open-list.js';

interface Item extends Listed {
  name: number;
}

const item = (name: number): Item => ({ name, openSlot: -1 });
const names = (list: OpenList<Item>) => list.values().map((i) => i.name).sort((a, b) => a - b);

describe('OpenList', () => {
  it('holds what was added and not removed, like a Set, under any sequence of adds and deletes', () => {
    const op = fc.record({ add: fc.boolean(), which: fc.nat({ max: 15 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const items = Array.from({ length: 16 }, (_, i) => item(i));
        const list = new OpenList<Item>();
        const model = new Set<number>();
        for (const { add, which } of ops) {
          if (add) {
            list.add(items[which]!);
            model.add(which);
          } else expect(list.delete(items[which]!)).toBe(model.delete(which));
          expect(list.size).toBe(model.size);
        }
        expect(names(list)).toEqual([...model].sort((a, b) => a - b));
        for (const it of items) expect(list.has(it)).toBe(model.has(it.name));
      }),
    );
  });

  it('keeps no reference to a removed item, and marks it as held by none', () => {
    const list = new OpenList<Item>();
    const [a, b, c] = [item(1), item(2), item(3)];
    list.add(a);
    list.add(b);
    list.add(c);
    list.delete(a);
    expect(a.openSlot).toBe(-1);
    expect(list.values()).not.toContain(a);
    expect(names(list)).toEqual([2, 3]);
  });

  it('takeAll empties the list and answers everything it held, each marked as held by none', () => {
    const list = new OpenList<Item>();
    const held = [item(1), item(2)];
    for (const i of held) list.add(i);
    const taken = list.takeAll();
    expect(taken).toEqual(held);
    expect(list.size).toBe(0);
    for (const i of held) expect(i.openSlot).toBe(-1);
    expect(list.delete(held[0]!)).toBe(false);
  });

  it('an item another list holds is not mistaken for one of its own', () => {
    const first = new OpenList<Item>();
    const second = new OpenList<Item>();
    const a = item(1);
    const b = item(2);
    first.add(a);
    second.add(b);
    // a's slot (0) points at b in the second list: not a's.
    expect(second.has(a)).toBe(false);
    expect(second.delete(a)).toBe(false);
    expect(second.size).toBe(1);
  });
});
