import { eq, sql } from 'drizzle-orm';
import { joinAudit } from '../audit-changes.js';
import { computeCallerJoin } from '../compute-caller-join.js';
import type { CallerAliasRecord, CallerJoinInput, CallerJoinRefusal } from '../records/caller-alias-record.js';
import { insertAuditEvents } from './audit-events.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { bumpPolicyVersion } from './policy-version.js';
import { callerAliasesTable } from './schema/index.js';

export async function listCallerAliases(db: PgDb): Promise<CallerAliasRecord[]> {
  return db.select().from(callerAliasesTable).orderBy(binaryOrder(callerAliasesTable.alias));
}

/**
 * Joins names into a caller, audited and with the policy version's bump in one transaction. The table
 * is locked against other writers first: two joins made at once on two nodes must not make a chain
 * (A into B and B into C) that neither would have allowed alone.
 */
export async function joinCallers(db: PgDb, input: CallerJoinInput, now: number): Promise<{ joined: CallerAliasRecord[] } | CallerJoinRefusal> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table caller_aliases in share row exclusive mode`);
    const planned = computeCallerJoin(await listCallerAliases(tx), input, now);
    if (!('rows' in planned)) return planned;
    if (planned.rows.length > 0) {
      await tx.insert(callerAliasesTable).values(planned.rows);
      await insertAuditEvents(tx, planned.rows.map((row) => joinAudit(row, 'caller.join', input.by)), now);
      await bumpPolicyVersion(tx, now);
    }
    return { joined: planned.rows };
  });
}

/** Undoes one join: the name gets its own history back. Answers the join undone, or undefined when there was none. */
export async function unjoinCaller(db: PgDb, alias: string, by: string, now: number): Promise<CallerAliasRecord | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(callerAliasesTable).where(eq(callerAliasesTable.alias, alias)).returning();
    if (row === undefined) return undefined;
    await insertAuditEvents(tx, [joinAudit(row, 'caller.unjoin', by)], now);
    await bumpPolicyVersion(tx, now);
    return row;
  });
}
