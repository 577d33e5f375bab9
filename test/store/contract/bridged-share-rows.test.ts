import { describe, expect, test } from 'vitest';
import { BACKENDS, cell, DAY, DAY_START, NOON, useStores, writeCells } from './backends.js';

const bridge = { reason: 'bridge' } as const;

describe.each(BACKENDS)('%s store: bridged share rows', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('a fresh store has no bridged rows', async () => {
    const store = await open();
    expect(await store.listBridgedShareRows(0, NOON + DAY)).toEqual([]);
  });

  test('sums the served requests the bridge answered per day and class, over nodes, and leaves every other reason and outcome out', async () => {
    const store = await open();
    await writeCells(store, [
      cell({ ...bridge, count: 7 }),
      cell({ ...bridge, integration: 'tok_b', count: 2 }), // another caller: the same row
      cell({ ...bridge, method: 'resources/read', count: 1 }), // another work method: the same row
      cell({ ...bridge, method: 'initialize', count: 3 }),
      cell({ ...bridge, method: 'ping', count: 4 }),
      cell({ ...bridge, kind: 'notification', method: 'notifications/initialized', outcome: 'accepted', count: 9 }),
      cell({ ...bridge, outcome: 'blocked', count: 5 }),
      cell({ ...bridge, outcome: 'server-error', count: 6 }),
      cell({ ...bridge, minute: NOON + DAY, count: 8 }),
      cell({ count: 100 }), // legacy, but its own session: not bridged
      cell({ reason: 'initialize', method: 'initialize', count: 10 }),
    ]);
    await writeCells(store, [cell({ ...bridge, node: 'node-2', count: 11 })]);

    const row = (requestClass: string, count: number, day = DAY_START) => ({ day, era: 'legacy', transport: 'streamable-http', version: '2025-06-18', outcome: 'served', requestClass, count });
    const byKey = (a: { day: number; requestClass: string }, b: { day: number; requestClass: string }) => a.day - b.day || a.requestClass.localeCompare(b.requestClass);
    const rows = await store.listBridgedShareRows(DAY_START, DAY_START + 2 * DAY);
    expect([...rows].sort(byKey)).toEqual([row('negotiation', 3), row('plumbing', 4), row('work', 7 + 2 + 1 + 11), row('work', 8, DAY_START + DAY)]);
    expect(rows.map((r) => r.day)).toEqual([...rows.map((r) => r.day)].sort((a, b) => a - b));

    expect([...(await store.listBridgedShareRows(DAY_START, DAY_START + DAY, 'node-1'))].sort(byKey)).toEqual([row('negotiation', 3), row('plumbing', 4), row('work', 10)]);
    expect(await store.listBridgedShareRows(DAY_START, DAY_START + DAY, 'node-2')).toEqual([row('work', 11)]);
    expect(await store.listBridgedShareRows(DAY_START + DAY, DAY_START + 2 * DAY)).toEqual([row('work', 8, DAY_START + DAY)]);
  });

  test('keeps served-as-legacy apart and the transport and version as written', async () => {
    const store = await open();
    await writeCells(store, [cell({ ...bridge, transport: 'stdio', version: '2025-03-26', count: 2 }), cell({ ...bridge, outcome: 'served-as-legacy', count: 3 })]);
    const rows = await store.listBridgedShareRows(DAY_START, DAY_START + DAY);
    expect([...rows].sort((a, b) => a.transport.localeCompare(b.transport) || a.outcome.localeCompare(b.outcome))).toEqual([
      { day: DAY_START, era: 'legacy', transport: 'stdio', version: '2025-03-26', outcome: 'served', requestClass: 'work', count: 2 },
      { day: DAY_START, era: 'legacy', transport: 'streamable-http', version: '2025-06-18', outcome: 'served-as-legacy', requestClass: 'work', count: 3 },
    ]);
  });
});
