import { asc, eq } from 'drizzle-orm';
import { joinAudit } from '../audit-changes.js';
import { computeCallerJoin } from '../compute-caller-join.js';
import type { CallerAliasRecord, CallerJoinInput, CallerJoinRefusal } from '../records/caller-alias-record.js';
import { insertAuditEvents } from './audit-events.js';
import type { Db } from './open-database.js';
import { bumpPolicyVersion } from './policy-version.js';
import { callerAliasesTable } from './schema/index.js';

export function listCallerAliases(db: Db): CallerAliasRecord[] {
  return db.select().from(callerAliasesTable).orderBy(asc(callerAliasesTable.alias)).all();
}

/**
 * Joins names into a caller, audited and with the policy version's bump in one transaction, so every
 * node folds them (its exemptions and known callers included) on its next policy check.
 */
export function joinCallers(db: Db, input: CallerJoinInput, now: number): { joined: CallerAliasRecord[] } | CallerJoinRefusal {
  return db.transaction(() => {
    const planned = computeCallerJoin(listCallerAliases(db), input, now);
    if (!('rows' in planned)) return planned;
    for (const row of planned.rows) db.insert(callerAliasesTable).values(row).run();
    if (planned.rows.length > 0) {
      insertAuditEvents(db, planned.rows.map((row) => joinAudit(row, 'caller.join', input.by)), now);
      bumpPolicyVersion(db, now);
    }
    return { joined: planned.rows };
  });
}

/** Undoes one join: the name gets its own history back. Answers the join undone, or undefined when there was none. */
export function unjoinCaller(db: Db, alias: string, by: string, now: number): CallerAliasRecord | undefined {
  return db.transaction(() => {
    const row = db.delete(callerAliasesTable).where(eq(callerAliasesTable.alias, alias)).returning().get();
    if (row === undefined) return undefined;
    insertAuditEvents(db, [joinAudit(row, 'caller.unjoin', by)], now);
    bumpPolicyVersion(db, now);
    return row;
  });
}
