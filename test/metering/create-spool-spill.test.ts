import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createSpoolSpill } from '../../server/metering/create-spool-spill.js';
import { readSpool } from '../../server/store/spool-file.js';
import type { SequencedBatch } from '../../server/tally/tally-cell.js';
import { trafficCell } from '../store/temp-database.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function spoolPath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-spill-'));
  folders.push(folder);
  return join(folder, 'node.spool');
}

const batch = (seq: number, count: number): SequencedBatch => ({ stream: 's', node: 'node-1', seq, batch: { cells: [trafficCell({ count })], integrations: [] } });

describe('createSpoolSpill', () => {
  test('appends batches to the spool file in order, reads them back, and counts their events', () => {
    const path = spoolPath();
    const spill = createSpoolSpill(path, 1_000_000);
    expect(spill.append([batch(1, 2), batch(2, 3)])).toBe(true);
    expect(spill.read().map((b) => b.seq)).toEqual([1, 2]);
    expect(spill.events()).toBe(5);
    // Another process reading the file (the next start) finds the same batches.
    expect(createSpoolSpill(path, 1_000_000).events()).toBe(5);
  });

  test('refuses what would pass its bound, and keeps what it had', () => {
    const path = spoolPath();
    const line = Buffer.byteLength(`${JSON.stringify(batch(1, 1))}\n`);
    const spill = createSpoolSpill(path, 2 * line);
    expect(spill.append([batch(1, 1)])).toBe(true);
    expect(spill.append([batch(2, 1), batch(3, 1)])).toBe(false);
    expect(spill.append([batch(2, 1)])).toBe(true);
    expect(statSync(path).size).toBe(2 * line);
    expect(spill.read().map((b) => b.seq)).toEqual([1, 2]);
  });

  test('clear forgets the sequenced batches and keeps an older spool\'s entries for the start-up replay', () => {
    const path = spoolPath();
    writeFileSync(path, `${JSON.stringify({ batchId: 'old-1', batch: { cells: [trafficCell({ count: 7 })], integrations: [] } })}\n`);
    const spill = createSpoolSpill(path, 1_000_000);
    spill.append([batch(1, 2)]);
    expect(spill.read().map((b) => b.seq)).toEqual([1]);
    spill.clear();
    expect(spill.read()).toEqual([]);
    expect(readSpool(path)).toEqual([{ batchId: 'old-1', batch: { cells: [trafficCell({ count: 7 })], integrations: [] } }]);
    expect(spill.events()).toBe(7);
  });
});
