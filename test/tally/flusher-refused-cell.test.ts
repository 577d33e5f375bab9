import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Flusher } from '../../server/tally/flusher.js';
import { Tally } from '../../server/tally/tally.js';
import { openStore } from '../../server/store/open-store.js';
import type { Store } from '../../server/store/store.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const entry = (method: string, integration: unknown) => ({
  labels: { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18', method, kind: 'request', outcome: 'served', integration },
  integrationSource: 'static-map',
  clientInfo: undefined,
  claimMismatch: false,
}) as never;

describe('a cell the store refuses', () => {
  test('is dropped and counted with the reason; every other count of its flush is stored, and later flushes go on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refused-'));
    dirs.push(dir);
    const store = await openStore(join(dir, 'a.db'));
    stores.push(store);
    const now = () => Date.UTC(2026, 11, 5, 12, 0, 0);
    const tally = new Tally({ node: 'n', now });
    const flusher = new Flusher({ tally, node: 'n', stream: 's', sink: { write: (b, at, hb) => store.writeTally(b, at, hb) }, now, intervalMs: 1000 });
    for (let i = 0; i < 7; i += 1) tally.add(entry('tools/call', `caller-${i}`));
    // A value no label should ever be; SQLite cannot bind it.
    tally.add(entry('tools/call', Object));
    tally.add(entry('tools/list', 'caller-0'));
    expect(await flusher.flushNow()).toBe(true);
    const health = flusher.health();
    expect(health).toMatchObject({ droppedEvents: 1, refusedEvents: 1, consecutiveFailures: 0 });
    expect(health.lastDropReason).toMatch(/the store refused a cell: .*bind/);
    tally.add(entry('tools/call', 'caller-0'));
    expect(await flusher.flushNow()).toBe(true);
    const volumes = await store.listCallerVolumes(0);
    const served = new Map(volumes.map((v) => [v.integration, v.served]));
    // Seven callers' calls, the list and the later flush's call: all but the refused cell.
    expect(served.get('caller-0')).toBe(3);
    for (let i = 1; i < 7; i += 1) expect(served.get(`caller-${i}`)).toBe(1);
    expect(volumes.reduce((sum, v) => sum + v.served, 0)).toBe(9);
  });
});
