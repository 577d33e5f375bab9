/**
 * The store's changes that the audit trail records, each run in one transaction with its records:
 * the rows are read before and after the change, and what changed is written beside it.
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
import type { Db } from './open-database.js';
import { pausePlans, resumePlans } from './pause-plans.js';
import { bridgeRevocationsTable } from './schema/index.js';
import { syncDeclaredPlans } from './sync-declared-plans.js';
import { updateIntegration } from './update-integration.js';
import { updatePlan } from './update-plan.js';
import { upsertBridgeRevocation } from './upsert-bridge-revocation.js';

type AuditedChanges = Pick<Store, 'insertPlan' | 'updatePlan' | 'syncDeclaredPlans' | 'pausePlans' | 'resumePlans' | 'upsertBridgeRevocation' | 'updateIntegration' | 'listAuditEvents'>;

const present = (records: readonly (AuditInput | null)[]): AuditInput[] => records.filter((r): r is AuditInput => r !== null);

export function createAuditedChanges(db: Db): AuditedChanges {
  const allPlans = () => listPlans(db, { includeArchived: true });
  return {
    insertPlan: async (input, now, actor = UNATTRIBUTED) =>
      db.transaction(() => {
        const plan = insertPlan(db, input, now);
        insertAuditEvents(db, present([planAudit(undefined, plan, actor)]), now);
        return plan;
      }),
    updatePlan: async (id, changes, now, actor = UNATTRIBUTED) =>
      db.transaction(() => {
        const before = getPlan(db, id);
        const after = updatePlan(db, id, changes, now);
        if (before !== undefined && after !== undefined) insertAuditEvents(db, present([planAudit(before, after, actor)]), now);
        return after;
      }),
    syncDeclaredPlans: async (declared, now) =>
      db.transaction(() => {
        const before = allPlans();
        const result = syncDeclaredPlans(db, declared, now);
        insertAuditEvents(db, declaredPlanAudits(before, allPlans()), now);
        return result;
      }),
    // A pause replaced or resumed now still counts as not ended at `now`, so one query sees it on both sides.
    pausePlans: async (input, now) =>
      db.transaction(() => {
        const before = listPlanPauses(db, { endedSince: now });
        const created = pausePlans(db, input, now);
        insertAuditEvents(db, pauseAudits(before, listPlanPauses(db, { endedSince: now }), input.by), now);
        return created;
      }),
    resumePlans: async (planIds, by, now) =>
      db.transaction(() => {
        const before = listPlanPauses(db, { endedSince: now });
        const ended = resumePlans(db, planIds, by, now);
        insertAuditEvents(db, pauseAudits(before, ended, by), now);
        return ended;
      }),
    upsertBridgeRevocation: async (input, now, actor = UNATTRIBUTED) =>
      db.transaction(() => {
        const before = db.select().from(bridgeRevocationsTable).where(eq(bridgeRevocationsTable.sessionId, input.sessionId)).get();
        const after = upsertBridgeRevocation(db, input, now);
        insertAuditEvents(db, present([revocationAudit(before, after, actor)]), now);
        return after;
      }),
    updateIntegration: async (key, changes, now, actor = UNATTRIBUTED) =>
      db.transaction(() => {
        const before = getIntegration(db, key);
        const after = updateIntegration(db, key, changes, now);
        if (before !== undefined && after !== undefined) insertAuditEvents(db, present([integrationAudit(before, after, actor)]), now);
        return after;
      }),
    listAuditEvents: async (query) => listAuditEvents(db, query),
  };
}
