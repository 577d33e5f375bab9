import { and, desc, eq, sql } from 'drizzle-orm';
import type { ProbeRecord } from '../records/probe-record.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { probesTable } from './schema/index.js';

/** The latest check of every node, in node order. */
export async function listLatestProbes(db: PgDb): Promise<ProbeRecord[]> {
  const t = probesTable;
  const latest = db.select({ node: t.node, at: sql<number>`max(${t.at})`.as('latest_at') }).from(t).groupBy(t.node).as('latest');
  const rows = await db
    .select({ probe: t })
    .from(t)
    .innerJoin(latest, and(eq(t.node, latest.node), eq(t.at, latest.at)))
    .orderBy(binaryOrder(t.node), desc(t.id));
  return rows.map((row) => row.probe).filter((probe, i, all) => i === 0 || all[i - 1]!.node !== probe.node);
}
