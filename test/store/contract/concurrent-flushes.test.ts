import { describe, expect, test } from 'vitest';
import type { SequencedBatch } from '../../../server/store/store.js';
import type { TallyCell } from '../../../server/tally/tally-cell.js';
import { BACKENDS, cell, DAY, DAY_START, MINUTE, NOON, sighting, useStores } from './backends.js';

const NODES = 6;
const FLUSHES = 5;
const CALLERS = ['tok_a', 'tok_b', 'tok_c', 'tok_d'];

/** One node's flush: every caller's legacy work, in an order of its own, as nodes see callers in different orders. */
function flushOf(node: number, seq: number): SequencedBatch {
  const callers = node % 2 === 0 ? CALLERS : [...CALLERS].reverse();
  const cells: TallyCell[] = callers.map((integration, i) => cell({ node: `node-${node}`, integration, minute: NOON + seq * MINUTE, count: 1 + i + node }));
  return {
    stream: `stream-${node}`,
    node: `node-${node}`,
    seq,
    batch: { cells, integrations: callers.map((key) => sighting({ key, firstSeen: NOON + seq * MINUTE - node, lastSeen: NOON + seq * MINUTE + node })) },
  };
}

describe.each(BACKENDS)('%s store: nodes flushing at once', (_dialect, backend) => {
  const { open, freshLocation } = useStores(backend);

  test('flushes of several nodes touching the same callers all land, each once, retries included', async () => {
    const location = await freshLocation();
    const stores = await Promise.all(Array.from({ length: NODES }, () => open(location)));
    const flushes = Array.from({ length: NODES }, (_, node) => Array.from({ length: FLUSHES }, (_, i) => flushOf(node, i + 1)));
    const results = await Promise.all(
      stores.map(async (store, node) => {
        const outcomes = [];
        for (const flush of flushes[node]!) {
          // Each flush is sent twice at once, as a retry racing its first attempt would be.
          outcomes.push(...(await Promise.all([store.writeTally([flush], NOON), store.writeTally([flush], NOON)])));
        }
        return outcomes;
      }),
    );
    const all = results.flat();
    expect(all.reduce((n, r) => n + r.written, 0)).toBe(NODES * FLUSHES);
    expect(all.reduce((n, r) => n + r.skipped, 0)).toBe(NODES * FLUSHES);
    expect(all.reduce((n, r) => n + r.writtenEvents, 0)).toBe(flushes.flat().reduce((n, f) => n + f.batch.cells.reduce((m, c) => m + c.count, 0), 0));

    const expected = flushes.flat().flatMap((f) => f.batch.cells);
    const byCaller = await stores[0]!.listTraffic({ from: DAY_START, to: DAY_START + DAY, bucket: 'day', groupBy: 'integration', filters: {} });
    expect({ ...byCaller.totals }).toEqual(Object.fromEntries(CALLERS.map((c) => [c, expected.filter((x) => x.integration === c).reduce((n, x) => n + x.count, 0)])));
    expect(await stores[0]!.listLegacyCallerCounts(DAY_START, DAY_START + DAY)).toEqual([{ day: DAY_START, count: CALLERS.length }]);
    const integrations = await stores[0]!.listIntegrations();
    expect(integrations.map((i) => [i.key, i.firstSeen, i.lastSeen])).toEqual(CALLERS.map((key) => [key, NOON + MINUTE - (NODES - 1), NOON + FLUSHES * MINUTE + (NODES - 1)]));
  });
});
