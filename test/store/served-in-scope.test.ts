import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isLegacyServed, isLegacyWorkServed, isServed } from '../../server/protocol/served.js';
import { ERAS, MESSAGE_KINDS, OUTCOMES } from '../../server/protocol/vocabulary.js';
import { classifyRequest, countsToward, SHARE_BASES } from '../../server/protocol/work-request.js';
import { legacyCallerDayTable, shareDayTable, trafficDayTable } from '../../server/store/sqlite/schema/index.js';
import { requestsOnBasis, servedInScope, servedRequests } from '../../server/store/served-in-scope.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { openTempDatabase, trafficCell, type TempDatabase } from './temp-database.js';

const METHODS = ['tools/call', 'resources/read', 'initialize', 'server/discover', 'ping', 'logging/setLevel', 'GET'];

/** One cell for every era × outcome × kind × method, each under its own integration key. */
function everyCombination(): TallyCell[] {
  return ERAS.flatMap((era) =>
    OUTCOMES.flatMap((outcome) =>
      MESSAGE_KINDS.flatMap((kind) => METHODS.map((method) => trafficCell({ era, outcome, kind, method, integration: `${era}|${outcome}|${kind}|${method}` }))),
    ),
  );
}

describe('the SQL definition of served agrees with server/protocol', () => {
  let db: TempDatabase;
  const cells = everyCombination();
  beforeEach(() => {
    db = openTempDatabase();
    createTallyWriter(db.store.db)({ cells, integrations: [] });
  });
  afterEach(() => db.dispose());

  const keysWhere = (where: ReturnType<typeof servedRequests>) =>
    db.store.db.select({ key: trafficDayTable.integration }).from(trafficDayTable).where(where).all().map((r) => r.key).sort();
  const keysOf = (pick: (cell: TallyCell) => boolean) => cells.filter(pick).map((c) => c.integration).sort();

  test.each(SHARE_BASES.map((basis) => ({ basis })))('on $basis: counted, served and legacy-served rows are the same in SQL and in TypeScript', ({ basis }) => {
    const counted = (c: TallyCell) => {
      const requestClass = classifyRequest(c.kind, c.method);
      return requestClass !== null && countsToward(basis, requestClass);
    };
    expect(keysWhere(requestsOnBasis(trafficDayTable, basis))).toEqual(keysOf(counted));
    expect(keysWhere(servedRequests(trafficDayTable, basis))).toEqual(keysOf((c) => counted(c) && isServed(c.outcome)));
    expect(keysWhere(servedInScope(trafficDayTable, { kind: 'era', value: 'legacy' }, basis))).toEqual(keysOf((c) => counted(c) && isLegacyServed(c.era, c.outcome)));
    expect(keysWhere(servedInScope(trafficDayTable, { kind: 'transport', value: 'streamable-http' }, basis))).toEqual(keysOf((c) => counted(c) && isServed(c.outcome)));
    expect(keysWhere(servedInScope(trafficDayTable, { kind: 'transport', value: 'stdio' }, basis))).toEqual([]);
  });

  test('the rollups file each request by its class, and only served legacy work makes a legacy caller', () => {
    const legacyCallers = db.store.db.select({ key: legacyCallerDayTable.integration }).from(legacyCallerDayTable).all().map((r) => r.key).sort();
    expect(legacyCallers).toEqual(keysOf(isLegacyWorkServed));
    expect(legacyCallers.length).toBeGreaterThan(0);

    const byClass = db.store.db
      .select({ requestClass: shareDayTable.requestClass, count: sql<number>`sum(${shareDayTable.count})` })
      .from(shareDayTable)
      .groupBy(shareDayTable.requestClass)
      .all();
    const expected = new Map<string, number>();
    for (const cell of cells) {
      const requestClass = classifyRequest(cell.kind, cell.method);
      if (requestClass !== null) expected.set(requestClass, (expected.get(requestClass) ?? 0) + cell.count);
    }
    expect(Object.fromEntries(byClass.map((r) => [r.requestClass, r.count]))).toEqual(Object.fromEntries(expected));
  });
});
