import { afterAll, afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../../server/store/open-store.js';
import type { Store, StoreDialect } from '../../../server/store/store.js';
import type { IntegrationSighting, TallyCell } from '../../../server/tally/tally-cell.js';
import { createTestDatabase } from '../../support/create-test-database.js';

export const NOON = Date.UTC(2026, 10, 30, 12, 0);
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
export const DAY_START = NOON - 12 * HOUR;

/** How the contract reaches a backend: a fresh empty place to keep a store, and the real opener of one. */
export interface Backend {
  freshLocation(): Promise<string>;
  openAt(location: string): Promise<Store>;
}

const places: (() => Promise<void>)[] = [];

const sqlite: Backend = {
  async freshLocation() {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-contract-'));
    places.push(async () => rmSync(folder, { recursive: true, force: true }));
    return join(folder, 'sunset.db');
  },
  openAt: (path) => openStore(path),
};

const postgres: Backend = {
  async freshLocation() {
    const database = await createTestDatabase();
    places.push(() => database.drop());
    return database.url;
  },
  openAt: (url) => openStore(url),
};

/** Every backend the contract runs against, each opened by the same opener `--db` goes through. */
export const BACKENDS: [StoreDialect, Backend][] = [
  ['sqlite', sqlite],
  ['postgres', postgres],
];

/**
 * Stores for one test file: `open()` opens a fresh empty store, `open(location)` another store on
 * the same place (as another node would). Stores close after each test; places go at the file's end.
 */
export function useStores(backend: Backend): { open(location?: string): Promise<Store>; freshLocation(): Promise<string> } {
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  afterAll(async () => {
    for (const remove of places.splice(0)) await remove();
  });
  return {
    freshLocation: () => backend.freshLocation(),
    async open(location) {
      const store = await backend.openAt(location ?? (await backend.freshLocation()));
      stores.push(store);
      return store;
    },
  };
}

/** A cell of legacy session traffic; override what a test is about. */
export function cell(overrides: Partial<TallyCell> = {}): TallyCell {
  return {
    minute: NOON,
    node: 'node-1',
    era: 'legacy',
    transport: 'streamable-http',
    reason: 'session-header',
    version: '2025-06-18',
    method: 'tools/call',
    kind: 'request',
    outcome: 'served',
    integration: 'tok_a',
    count: 1,
    mismatchCount: 0,
    ...overrides,
  };
}

export function sighting(overrides: Partial<IntegrationSighting> = {}): IntegrationSighting {
  return { key: 'tok_a', source: 'bearer-fingerprint', firstSeen: NOON, lastSeen: NOON, lastLegacySeen: undefined, clientInfo: undefined, ...overrides };
}

let streamCounter = 0;

/** Writes cells (and sightings) as one new stream's first batch. */
export async function writeCells(store: Store, cells: TallyCell[], integrations: IntegrationSighting[] = []): Promise<void> {
  streamCounter += 1;
  await store.writeTally([{ stream: `stream-${streamCounter}`, node: cells[0]?.node ?? 'node-1', seq: 1, batch: { cells, integrations } }], NOON);
}

/** The sum of `count` over the cells a predicate keeps: what a query should answer, computed from the inputs. */
export function sumOf(cells: readonly TallyCell[], keep: (c: TallyCell) => boolean = () => true): number {
  return cells.filter(keep).reduce((total, c) => total + c.count, 0);
}
