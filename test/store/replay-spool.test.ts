import { copyFileSync, existsSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { replaySpool } from '../../server/store/sqlite/replay-spool.js';
import { trafficMinuteTable } from '../../server/store/sqlite/schema/index.js';
import { appendSpool, readSpool } from '../../server/store/spool-file.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { openTempDatabase, trafficCell, type TempDatabase } from './temp-database.js';

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

  test('writes every spooled batch once and removes the spool; the same batches offered again add nothing', () => {
    appendSpool(spool, { batchId: 'a', batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { batchId: 'b', batch: { cells: [trafficCell({ minute: NOON, method: 'tools/list', count: 4 })], integrations: [] } });
    const copy = `${spool}.copy`;
    copyFileSync(spool, copy);
    const write = createTallyWriter(db.store.db);

    expect(replaySpool(db.store, spool, write, NOON)).toEqual({ replayedEvents: 7, skippedBatches: 0 });
    expect(existsSync(spool)).toBe(false);
    expect(storedCount()).toBe(7);

    copyFileSync(copy, spool);
    expect(replaySpool(db.store, spool, write, NOON)).toEqual({ replayedEvents: 0, skippedBatches: 2 });
    expect(storedCount()).toBe(7);
  });

  test('a write that fails leaves the spool in place and stores none of it', () => {
    appendSpool(spool, { batchId: 'a', batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendSpool(spool, { batchId: 'b', batch: { cells: [trafficCell({ minute: NOON, count: 4 })], integrations: [] } });
    const real = createTallyWriter(db.store.db);
    let writes = 0;
    const failSecond = (batch: Parameters<typeof real>[0]) => {
      writes += 1;
      real(batch);
      if (writes === 2) throw new Error('disk I/O error');
    };
    expect(() => replaySpool(db.store, spool, failSecond, NOON)).toThrow('disk I/O error');
    expect(existsSync(spool)).toBe(true);
    expect(storedCount()).toBe(0);
    expect(replaySpool(db.store, spool, real, NOON).replayedEvents).toBe(7);
  });

  test('a line torn by a crash mid-append is skipped, the whole ones are read', () => {
    appendSpool(spool, { batchId: 'a', batch: { cells: [trafficCell({ minute: NOON, count: 3 })], integrations: [] } });
    appendFileSync(spool, '{"batchId":"b","batch":{"cells":[');
    expect(readSpool(spool).map((entry) => entry.batchId)).toEqual(['a']);
    writeFileSync(spool, '');
    expect(readSpool(spool)).toEqual([]);
  });
});
