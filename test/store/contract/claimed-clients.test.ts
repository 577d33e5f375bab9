import { describe, expect, test } from 'vitest';
import type { ClaimCell } from '../../../server/tally/tally-cell.js';
import { BACKENDS, cell, DAY, DAY_START, NOON, useStores } from './backends.js';

function claim(overrides: Partial<ClaimCell> = {}): ClaimCell {
  return { day: DAY_START, node: 'node-1', era: 'legacy', kind: 'client-info', name: 'Desk Host', version: '1.2.0', count: 1, ...overrides };
}

let streams = 0;
describe.each(BACKENDS)('%s store: the unknown base by claimed client', (_dialect, backend) => {
  const { open } = useStores(backend);
  const write = async (store: Awaited<ReturnType<typeof open>>, claims: ClaimCell[], node = 'node-1') => {
    streams += 1;
    await store.writeTally([{ stream: `claims-${streams}`, node, seq: 1, batch: { cells: [cell({ node })], integrations: [], claims } }], NOON);
  };

  test('claims add up over nodes, days and flushes, most legacy work first, and a retried flush adds nothing', async () => {
    const store = await open();
    await write(store, [claim({ count: 3 }), claim({ era: 'modern', count: 2 }), claim({ kind: 'user-agent', name: 'python-httpx', version: '0.28.1', count: 9 })], 'node-1');
    await write(store, [claim({ count: 4, node: 'node-2' }), claim({ day: DAY_START - DAY, count: 1, node: 'node-2' })], 'node-2');
    await write(store, [claim({ kind: 'none', name: '', version: '', count: 2 })]);
    const retried = { stream: 'claims-retry', node: 'node-1', seq: 1, batch: { cells: [cell()], integrations: [], claims: [claim({ count: 100 })] } };
    await store.writeTally([retried], NOON);
    await store.writeTally([retried], NOON);
    expect(await store.listClaimedClients({ from: DAY_START - DAY, to: DAY_START + DAY })).toEqual([
      { kind: 'client-info', name: 'Desk Host', version: '1.2.0', legacy: 3 + 4 + 1 + 100, modern: 2 },
      { kind: 'user-agent', name: 'python-httpx', version: '0.28.1', legacy: 9, modern: 0 },
      { kind: 'none', name: '', version: '', legacy: 2, modern: 0 },
    ]);
    expect(await store.listClaimedClients({ from: DAY_START, to: DAY_START + DAY })).toContainEqual({ kind: 'client-info', name: 'Desk Host', version: '1.2.0', legacy: 107, modern: 2 });
  });

  test('a claim is the client\'s text: a NUL in it never fails the flush', async () => {
    const store = await open();
    await write(store, [claim({ name: 'odd\u0000name', version: 'v\u0000' })]);
    expect(await store.listClaimedClients({ from: DAY_START, to: DAY_START + DAY })).toHaveLength(1);
  });
});
