import { sql } from 'drizzle-orm';
import type { Bucket } from '../../lib/time-bucket.js';
import { bucketStart } from '../../lib/time-bucket.js';
import type { NodeHeartbeat, TallyBatch, TallyCell } from '../../tally/tally-cell.js';
import { HEARTBEAT_UPDATE, heartbeatValues } from '../heartbeat-values.js';
import { rollupValues } from '../rollup-values.js';
import { sightingValues } from '../sighting-values.js';
import type { Db } from './open-database.js';
import { callerPeopleDayTable, claimedClientDayTable, integrationsTable, legacyCallerDayTable, shareDayTable, sidecarNodesTable, trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from './schema/index.js';

const P = (name: string) => sql.placeholder(name);

function prepareTrafficUpsert(db: Db, table: TrafficTable) {
  return db
    .insert(table)
    .values({
      bucketStart: P('bucketStart'),
      node: P('node'),
      era: P('era'),
      transport: P('transport'),
      reason: P('reason'),
      version: P('version'),
      method: P('method'),
      kind: P('kind'),
      outcome: P('outcome'),
      integration: P('integration'),
      count: P('count'),
      mismatchCount: P('mismatchCount'),
      wouldBlockCount: P('wouldBlockCount'),
    })
    .onConflictDoUpdate({
      target: [table.bucketStart, table.node, table.era, table.transport, table.reason, table.version, table.method, table.kind, table.outcome, table.integration],
      set: {
        count: sql`${table.count} + excluded.count`,
        mismatchCount: sql`${table.mismatchCount} + excluded.mismatch_count`,
        wouldBlockCount: sql`${table.wouldBlockCount} + excluded.would_block_count`,
      },
    })
    .prepare();
}

function prepareIntegrationUpsert(db: Db) {
  const t = integrationsTable;
  return db
    .insert(t)
    .values({
      key: P('key'),
      source: P('source'),
      firstSeen: P('firstSeen'),
      lastSeen: P('lastSeen'),
      lastLegacySeen: P('lastLegacySeen'),
      clientInfoName: P('clientInfoName'),
      clientInfoVersion: P('clientInfoVersion'),
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        firstSeen: sql`min(${t.firstSeen}, excluded.first_seen)`,
        lastSeen: sql`max(${t.lastSeen}, excluded.last_seen)`,
        lastLegacySeen: sql`nullif(max(coalesce(${t.lastLegacySeen}, 0), coalesce(excluded.last_legacy_seen, 0)), 0)`,
        clientInfoName: sql`coalesce(excluded.client_info_name, ${t.clientInfoName})`,
        clientInfoVersion: sql`coalesce(excluded.client_info_version, ${t.clientInfoVersion})`,
      },
    })
    .prepare();
}

/** A person is a row of its own, written once: a second sighting of it changes nothing. */
function preparePersonInsert(db: Db) {
  return db
    .insert(callerPeopleDayTable)
    .values({ day: P('day'), integration: P('integration'), era: P('era'), transport: P('transport'), version: P('version'), subject: P('subject') })
    .onConflictDoNothing()
    .prepare();
}

/** Claims add up per day, node, era and claim, as the share rollup does. */
function prepareClaimUpsert(db: Db) {
  const t = claimedClientDayTable;
  return db
    .insert(t)
    .values({ day: P('day'), node: P('node'), era: P('era'), kind: P('kind'), name: P('name'), version: P('version'), count: P('count') })
    .onConflictDoUpdate({ target: [t.day, t.node, t.era, t.kind, t.name, t.version], set: { count: sql`${t.count} + excluded.count` } })
    .prepare();
}

function prepareHeartbeatUpsert(db: Db) {
  const t = sidecarNodesTable;
  return db
    .insert(t)
    .values({ node: P('node'), kind: P('kind'), firstSeen: P('firstSeen'), lastFlushAt: P('lastFlushAt'), policyVersion: P('policyVersion'), startedAt: P('startedAt') })
    .onConflictDoUpdate({ target: t.node, set: HEARTBEAT_UPDATE })
    .prepare();
}

function prepareRollupUpserts(db: Db) {
  const share = db
    .insert(shareDayTable)
    .values({ day: P('day'), node: P('node'), era: P('era'), transport: P('transport'), version: P('version'), outcome: P('outcome'), requestClass: P('requestClass'), count: P('count') })
    .onConflictDoUpdate({
      target: [shareDayTable.day, shareDayTable.node, shareDayTable.era, shareDayTable.transport, shareDayTable.version, shareDayTable.outcome, shareDayTable.requestClass],
      set: { count: sql`${shareDayTable.count} + excluded.count` },
    })
    .prepare();
  const legacyCaller = db
    .insert(legacyCallerDayTable)
    .values({ day: P('day'), node: P('node'), integration: P('integration'), count: P('count') })
    .onConflictDoUpdate({ target: [legacyCallerDayTable.day, legacyCallerDayTable.node, legacyCallerDayTable.integration], set: { count: sql`${legacyCallerDayTable.count} + excluded.count` } })
    .prepare();
  return (cell: TallyCell) => {
    const rollup = rollupValues(cell);
    if (rollup === null) return;
    share.run(rollup.share);
    if (rollup.legacyCaller !== null) legacyCaller.run(rollup.legacyCaller);
  };
}

/** The statements of one flush, prepared once; callers run them inside their own transaction. */
export interface BatchStatements {
  /** Upserts the batch's cells into every table, the rollups, its integration sightings and its people. */
  writeBatch(batch: TallyBatch): void;
  touchNode(heartbeat: NodeHeartbeat): void;
}

export function prepareBatchStatements(db: Db): BatchStatements {
  const targets: [Bucket, ReturnType<typeof prepareTrafficUpsert>][] = [
    ['minute', prepareTrafficUpsert(db, trafficMinuteTable)],
    ['hour', prepareTrafficUpsert(db, trafficHourTable)],
    ['day', prepareTrafficUpsert(db, trafficDayTable)],
  ];
  const integrations = prepareIntegrationUpsert(db);
  const people = preparePersonInsert(db);
  const claims = prepareClaimUpsert(db);
  const rollUp = prepareRollupUpserts(db);
  const touchNode = prepareHeartbeatUpsert(db);
  return {
    writeBatch(batch) {
      for (const cell of batch.cells) {
        const { minute, wouldBlockCount, ...labels } = cell;
        for (const [bucket, upsert] of targets) upsert.run({ ...labels, wouldBlockCount: wouldBlockCount ?? 0, bucketStart: bucketStart(minute, bucket) });
        rollUp(cell);
      }
      for (const sighting of batch.integrations) integrations.run(sightingValues(sighting));
      for (const person of batch.people ?? []) people.run({ ...person });
      for (const claim of batch.claims ?? []) claims.run({ ...claim });
    },
    touchNode(heartbeat) {
      touchNode.run(heartbeatValues(heartbeat));
    },
  };
}

/**
 * Returns a writer that upserts a tally batch into the minute, hour and day tables, the rollups
 * and the integrations table, and the node's heartbeat when given, in one transaction: either the
 * whole flush lands, or none of it. It writes what it is given, every time: seeding and tools use
 * it; a live flush goes through the stream writer, which writes each batch once.
 */
export function createTallyWriter(db: Db): (batch: TallyBatch, heartbeat?: NodeHeartbeat) => void {
  const statements = prepareBatchStatements(db);
  return (batch, heartbeat) => {
    db.transaction(() => {
      statements.writeBatch(batch);
      if (heartbeat !== undefined) statements.touchNode(heartbeat);
    });
  };
}
