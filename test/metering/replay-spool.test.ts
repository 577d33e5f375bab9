import { appendFileSync, copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { replaySpool } from '../../server/metering/replay-spool.js';
import { trafficMinuteTable } from '../../server/store/sqlite/schema/index.js';
import { appendSpool, readSpool } from '../../server/store/spool-file.js';
import type { Store } from '../../server/store/store.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../store/temp-database.js';

const NOON = Date.UTC(2026, 10, 30, 12, 0);

describe('replaySpool', () => {
  let db: TempDatabase;
  let spool: string;
  beforeEach(() => {
    db = openTempDatabase();
    spool = join(db.folder, 'sunset.db.spool');
  });
  afterEach(() => db.dispose());

  function storedCount(): number {
    return db.store.db.select().from(trafficMinuteTable).all().reduce((sum, row) => sum + row.count, 0);
  }

  test('writes every sequenced batch once and removes the spool; the same batches offered again add nothing', async () => {
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 2, batch: { cells: [trafficCell({ minute: NOON, method: 'tools/list', count: 4 })], integrations: [] } });
    const copy = `${spool}.copy`;
    copyFileSync(spool, copy);

    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 7, skippedBatches: 0 });
    expect(existsSync(spool)).toBe(false);
    expect(storedCount()).toBe(7);

    copyFileSync(copy, spool);
    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 0, skippedBatches: 2 });
    expect(storedCount()).toBe(7);
  });

  test('a stream\'s batches are written in number order, whatever order the spool holds them in', async () => {
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 2, batch: { cells: [trafficCell({ minute: NOON, count: 4 })], integrations: [] } });
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 7, skippedBatches: 0 });
    expect(storedCount()).toBe(7);
  });

  test('a batch the live flush already wrote under its stream number is skipped', async () => {
    await db.backend.writeTally([{ stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } }], NOON);
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 2, batch: { cells: [trafficCell({ minute: NOON, count: 4 })], integrations: [] } });
    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 4, skippedBatches: 1 });
    expect(storedCount()).toBe(7);
  });

  test('spools from before streams (a string id per batch) replay once too, beside sequenced ones', async () => {
    appendSpool(spool, { batchId: 'a', batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { batchId: 'b', batch: { cells: [trafficCell({ minute: NOON, method: 'tools/list', count: 4 })], integrations: [] } });
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 5 })], integrations: [] } });
    const copy = `${spool}.copy`;
    copyFileSync(spool, copy);

    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 12, skippedBatches: 0 });
    expect(existsSync(spool)).toBe(false);
    expect(storedCount()).toBe(12);

    copyFileSync(copy, spool);
    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 0, skippedBatches: 3 });
    expect(storedCount()).toBe(12);
  });

  test('a write that fails leaves the spool in place and stores none of it', async () => {
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 2, batch: { cells: [trafficCell({ minute: NOON, count: 4 })], integrations: [] } });
    const failing: Store = {
      ...db.backend,
      writeTally: async () => {
        throw new Error('disk I/O error');
      },
    };
    await expect(replaySpool(failing, spool, NOON)).rejects.toThrow('disk I/O error');
    expect(existsSync(spool)).toBe(true);
    expect(storedCount()).toBe(0);
    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 7, skippedBatches: 0 });
    expect(storedCount()).toBe(7);
  });

  test('a write that fails after part of the spool landed leaves the spool in place; the next replay writes only the rest', async () => {
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 2, batch: { cells: [trafficCell({ minute: NOON, count: 4 })], integrations: [] } });
    appendSpool(spool, { batchId: 'a', batch: { cells: [trafficCell({ minute: NOON, count: 5 })], integrations: [] } });
    const failing: Store = {
      ...db.backend,
      writeLegacySpoolBatches: async () => {
        throw new Error('disk I/O error');
      },
    };
    await expect(replaySpool(failing, spool, NOON)).rejects.toThrow('disk I/O error');
    expect(existsSync(spool)).toBe(true);
    expect(await replaySpool(db.backend, spool, NOON)).toEqual({ replayedEvents: 5, skippedBatches: 2 });
    expect(existsSync(spool)).toBe(false);
    expect(storedCount()).toBe(12);
  });

  test('a line torn by a crash mid-append is skipped, the whole ones are read', () => {
    appendSpool(spool, { stream: 's1', node: 'node-1', seq: 1, batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { batchId: 'a', batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendFileSync(spool, '{"stream":"s1","node":"node-1","seq":2,"batch":{"cells":[');
    expect(readSpool(spool).map((entry) => ('stream' in entry ? `${entry.stream}#${entry.seq}` : entry.batchId))).toEqual(['s1#1', 'a']);
    writeFileSync(spool, '');
    expect(readSpool(spool)).toEqual([]);
  });
});
