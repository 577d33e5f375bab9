/**
 * The neutral records are written out by hand, so they can drift from the tables. These checks
 * pin each one to the row both dialects' tables answer: a column added, renamed or retyped in
 * either schema without its record fails the typecheck (`npm run typecheck`), which compiles this
 * file; at run time the assertions do nothing.
 */
import { describe, expectTypeOf, test } from 'vitest';
import * as pg from '../../../server/store/postgres/schema/index.js';
import type { AlertDeliveryRecord, AlertRecord } from '../../../server/store/records/alert-record.js';
import type { AuditEventRecord } from '../../../server/store/records/audit-event-record.js';
import type { BridgeRevocationRecord } from '../../../server/store/records/bridge-revocation-record.js';
import type { CallerContactRecord } from '../../../server/store/records/caller-contact-record.js';
import type { CallerNoticeRecord } from '../../../server/store/records/caller-notice-record.js';
import type { DigestRecord } from '../../../server/store/records/digest-record.js';
import type { IntegrationRecord } from '../../../server/store/records/integration-record.js';
import type { PlanPauseRecord } from '../../../server/store/records/plan-pause-record.js';
import type { PlanRecord } from '../../../server/store/records/plan-record.js';
import type { ProbeInsert, ProbeRecord } from '../../../server/store/records/probe-record.js';
import type { ShareDayRow } from '../../../server/store/records/share-day-row.js';
import type { SidecarNodeRecord } from '../../../server/store/records/sidecar-node-record.js';
import * as sqlite from '../../../server/store/sqlite/schema/index.js';

/** A plan row as the record holds it: the gate's two columns as one field, brownouts and exemptions from their own tables. */
type PlanFields<Row> = Omit<Row, 'gateBackstopDate' | 'gateMaxShare'>;
type PlanRecordFields = Omit<PlanRecord, 'gate' | 'brownouts' | 'exemptions'>;

describe('the neutral records are the rows both dialects store', () => {
  test('SQLite', () => {
    expectTypeOf<typeof sqlite.alertsTable.$inferSelect>().toEqualTypeOf<AlertRecord>();
    expectTypeOf<typeof sqlite.alertDeliveriesTable.$inferSelect>().toEqualTypeOf<AlertDeliveryRecord>();
    expectTypeOf<typeof sqlite.auditEventsTable.$inferSelect>().toEqualTypeOf<AuditEventRecord>();
    expectTypeOf<typeof sqlite.bridgeRevocationsTable.$inferSelect>().toEqualTypeOf<BridgeRevocationRecord>();
    expectTypeOf<typeof sqlite.callerContactsTable.$inferSelect>().toEqualTypeOf<CallerContactRecord>();
    expectTypeOf<typeof sqlite.callerNoticesTable.$inferSelect>().toEqualTypeOf<CallerNoticeRecord>();
    expectTypeOf<typeof sqlite.digestsTable.$inferSelect>().toEqualTypeOf<DigestRecord>();
    expectTypeOf<typeof sqlite.integrationsTable.$inferSelect>().toEqualTypeOf<IntegrationRecord>();
    expectTypeOf<typeof sqlite.planPausesTable.$inferSelect>().toEqualTypeOf<PlanPauseRecord>();
    expectTypeOf<PlanFields<typeof sqlite.plansTable.$inferSelect>>().toEqualTypeOf<PlanRecordFields>();
    expectTypeOf<typeof sqlite.probesTable.$inferSelect>().toEqualTypeOf<ProbeRecord>();
    expectTypeOf<ProbeInsert>().toExtend<typeof sqlite.probesTable.$inferInsert>();
    expectTypeOf<typeof sqlite.shareDayTable.$inferSelect>().toEqualTypeOf<ShareDayRow>();
    expectTypeOf<typeof sqlite.sidecarNodesTable.$inferSelect>().toEqualTypeOf<SidecarNodeRecord>();
  });

  test('Postgres', () => {
    expectTypeOf<typeof pg.alertsTable.$inferSelect>().toEqualTypeOf<AlertRecord>();
    expectTypeOf<typeof pg.alertDeliveriesTable.$inferSelect>().toEqualTypeOf<AlertDeliveryRecord>();
    expectTypeOf<typeof pg.auditEventsTable.$inferSelect>().toEqualTypeOf<AuditEventRecord>();
    expectTypeOf<typeof pg.bridgeRevocationsTable.$inferSelect>().toEqualTypeOf<BridgeRevocationRecord>();
    expectTypeOf<typeof pg.callerContactsTable.$inferSelect>().toEqualTypeOf<CallerContactRecord>();
    expectTypeOf<typeof pg.callerNoticesTable.$inferSelect>().toEqualTypeOf<CallerNoticeRecord>();
    expectTypeOf<typeof pg.digestsTable.$inferSelect>().toEqualTypeOf<DigestRecord>();
    expectTypeOf<typeof pg.integrationsTable.$inferSelect>().toEqualTypeOf<IntegrationRecord>();
    expectTypeOf<typeof pg.planPausesTable.$inferSelect>().toEqualTypeOf<PlanPauseRecord>();
    expectTypeOf<PlanFields<typeof pg.plansTable.$inferSelect>>().toEqualTypeOf<PlanRecordFields>();
    expectTypeOf<typeof pg.probesTable.$inferSelect>().toEqualTypeOf<ProbeRecord>();
    expectTypeOf<ProbeInsert>().toExtend<typeof pg.probesTable.$inferInsert>();
    expectTypeOf<typeof pg.shareDayTable.$inferSelect>().toEqualTypeOf<ShareDayRow>();
    expectTypeOf<typeof pg.sidecarNodesTable.$inferSelect>().toEqualTypeOf<SidecarNodeRecord>();
  });
});
