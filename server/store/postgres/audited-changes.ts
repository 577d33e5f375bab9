/**
 * The store's changes that the audit trail records, each run in one transaction with its records
 * (the dialect functions nest theirs as savepoints): rows read before and after, what changed beside.
 */
import { eq } from 'drizzle-orm';
import { declaredPlanAudits, integrationAudit, pauseAudits, planAudit, revocationAudit, UNATTRIBUTED } from '../audit-changes.js';
import type { AuditInput } from '../records/audit-event-record.js';
import type { Store } from '../store.js';
import { insertAuditEvents, listAuditEvents } from './audit-events.js';
import { getIntegration } from './get-integration.js';
import { getPlan } from './get-plan.js';
import { insertPlan } from './insert-plan.js';
import { listPlanPauses } from './list-plan-pauses.js';
import { listPlans } from './list-plans.js';
import { pausePlans, resumePlans } from './pause-plans.js';
import type { PgDb } from './pg-db.js';
import { bridgeRevocationsTable } from './schema/index.js';
import { syncDeclaredPlans } from './sync-declared-plans.js';
import { updateIntegration } from './update-integration.js';
import { updatePlan } from './update-plan.js';
import { upsertBridgeRevocation } from './upsert-bridge-revocation.js';

type AuditedChanges = Pick<Store, 'insertPlan' | 'updatePlan' | 'syncDeclaredPlans' | 'pausePlans' | 'resumePlans' | 'upsertBridgeRevocation' | 'updateIntegration' | 'listAuditEvents'>;

const present = (records: readonly (AuditInput | null)[]): AuditInput[] => records.filter((r): r is AuditInput => r !== null);

export function createAuditedChanges(db: PgDb): AuditedChanges {
  const allPlans = (tx: PgDb) => listPlans(tx, { includeArchived: true });
  return {
    insertPlan: (input, now, actor = UNATTRIBUTED) =>
      db.transaction(async (tx) => {
        const plan = await insertPlan(tx, input, now);
        await insertAuditEvents(tx, present([planAudit(undefined, plan, actor)]), now);
        return plan;
      }),
    updatePlan: (id, changes, now, actor = UNATTRIBUTED) =>
      db.transaction(async (tx) => {
        const before = await getPlan(tx, id);
        const after = await updatePlan(tx, id, changes, now);
        if (before !== undefined && after !== undefined) await insertAuditEvents(tx, present([planAudit(before, after, actor)]), now);
        return after;
      }),
    syncDeclaredPlans: (declared, now) =>
      db.transaction(async (tx) => {
        const before = await allPlans(tx);
        const result = await syncDeclaredPlans(tx, declared, now);
        await insertAuditEvents(tx, declaredPlanAudits(before, await allPlans(tx)), now);
        return result;
      }),
    pausePlans: (input, now) =>
      db.transaction(async (tx) => {
        const before = await listPlanPauses(tx, { endedSince: now });
        const created = await pausePlans(tx, input, now);
        await insertAuditEvents(tx, pauseAudits(before, await listPlanPauses(tx, { endedSince: now }), input.by), now);
        return created;
      }),
    resumePlans: (planIds, by, now) =>
      db.transaction(async (tx) => {
        const before = await listPlanPauses(tx, { endedSince: now });
        const ended = await resumePlans(tx, planIds, by, now);
        await insertAuditEvents(tx, pauseAudits(before, ended, by), now);
        return ended;
      }),
    upsertBridgeRevocation: (input, now, actor = UNATTRIBUTED) =>
      db.transaction(async (tx) => {
        const [before] = await tx.select().from(bridgeRevocationsTable).where(eq(bridgeRevocationsTable.sessionId, input.sessionId));
        const after = await upsertBridgeRevocation(tx, input, now);
        await insertAuditEvents(tx, present([revocationAudit(before, after, actor)]), now);
        return after;
      }),
    updateIntegration: (key, changes, now, actor = UNATTRIBUTED) =>
      db.transaction(async (tx) => {
        const before = await getIntegration(tx, key);
        const after = await updateIntegration(tx, key, changes, now);
        if (before !== undefined && after !== undefined) await insertAuditEvents(tx, present([integrationAudit(before, after, actor)]), now);
        return after;
      }),
    listAuditEvents: (query) => listAuditEvents(db, query),
  };
}
