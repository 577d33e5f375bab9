import type { Store } from '../store.js';
import { createAuditedChanges } from './audited-changes.js';
import { claimDigest, finishDigest, listDigests } from './digests.js';
import { claimNotices, finishNotice, insertCallerContact, listCallerContacts, listCallerNotices } from './caller-notices.js';
import { applyIntegrationClosures } from './apply-integration-closures.js';
import { deleteExpiredBridgeRevocations } from './delete-expired-bridge-revocations.js';
import { deleteExpiredTraffic } from './delete-expired-traffic.js';
import { getAlertSetting } from './get-alert-setting.js';
import { getAlert } from './get-alert.js';
import { getInstallSecret } from './get-install-secret.js';
import { getIntegration } from './get-integration.js';
import { getPlan } from './get-plan.js';
import { insertAlertDelivery } from './insert-alert-delivery.js';
import { insertProbe } from './insert-probe.js';
import { listAlerts } from './list-alerts.js';
import { listBridgeRevocations } from './list-bridge-revocations.js';
import { listBridgedShareRows } from './list-bridged-share-rows.js';
import { listCallerRefusals } from './list-caller-refusals.js';
import { listCallerVolumes, listScopeCallersBefore, listScopeLastTraffic, listScopeLastUse } from './list-caller-usage.js';
import { listIntegrations } from './list-integrations.js';
import { listLatestProbes } from './list-latest-probes.js';
import { listLegacyCallerCounts } from './list-legacy-caller-counts.js';
import { listModernCallerCounts } from './list-modern-caller-counts.js';
import { listNewLegacyCallers } from './list-new-legacy-callers.js';
import { listPlans } from './list-plans.js';
import { listPlanPauses } from './list-plan-pauses.js';
import { listScopeCallers } from './list-scope-callers.js';
import { joinCallers, listCallerAliases, unjoinCaller } from './caller-aliases.js';
import { countPeople, listCallerPeople, listCallerPeopleDays } from './list-caller-people.js';
import { listClaimedClients } from './list-claimed-clients.js';
import { listServedVersions } from './list-served-versions.js';
import { listShareRows } from './list-share-rows.js';
import { listSidecarNodes } from './list-sidecar-nodes.js';
import { listTraffic } from './list-traffic.js';
import type { PgDb } from './pg-db.js';
import { getPolicyVersion, getPolicyVersionChange } from './policy-version.js';
import { saveAlertEvaluation } from './save-alert-evaluation.js';
import { setIntegrationClientName } from './set-integration-client-name.js';
import { bucketFor, sumScopeRefusals } from './sum-scope-refusals.js';
import { sumScopeShare } from './sum-scope-share.js';
import { sumServedRequests } from './sum-served-requests.js';
import { writeLegacySpoolBatches } from './write-legacy-spool-batches.js';
import { writeOneFlush } from './write-one-flush.js';
import { writeTally } from './write-tally.js';
import type pg from 'pg';

/** The store interface over a Postgres database: each call one statement or one transaction. */
export function createPostgresStore(db: PgDb, connection: { location: string; close(): Promise<void>; pool: pg.Pool }): Store {
  return {
    dialect: 'postgres',
    location: connection.location,
    close: () => connection.close(),

    // The steady state, one batch per flush, takes one round trip; a retry carrying several, a transaction.
    writeTally: (batches, now, heartbeat) => (batches.length === 1 ? writeOneFlush(connection.pool, db, batches[0]!, now, heartbeat) : writeTally(db, batches, now, heartbeat)),
    writeLegacySpoolBatches: (entries, now) => writeLegacySpoolBatches(db, entries, now),
    listTraffic: (query) => listTraffic(db, query),
    listShareRows: (from, to, node) => listShareRows(db, from, to, node),
    listBridgedShareRows: (from, to, node) => listBridgedShareRows(db, from, to, node),
    listLegacyCallerCounts: (from, to) => listLegacyCallerCounts(db, from, to),
    listModernCallerCounts: (from, to) => listModernCallerCounts(db, from, to),
    listNewLegacyCallers: (sinceDay) => listNewLegacyCallers(db, sinceDay),
    listCallerRefusals: (hourStart) => listCallerRefusals(db, hourStart),
    listCallerVolumes: (since) => listCallerVolumes(db, since),
    listScopeLastUse: (scope, since) => listScopeLastUse(db, scope, since),
    listScopeCallersBefore: (scope, before) => listScopeCallersBefore(db, scope, before),
    listScopeLastTraffic: (scope, since) => listScopeLastTraffic(db, scope, since),
    listScopeCallers: (scope, span) => listScopeCallers(db, scope, span),
    listCallerAliases: () => listCallerAliases(db),
    joinCallers: (input, now) => joinCallers(db, input, now),
    unjoinCaller: (alias, by, now) => unjoinCaller(db, alias, by, now),
    listCallerPeople: (span, scope) => listCallerPeople(db, span, scope),
    listClaimedClients: (span) => listClaimedClients(db, span),
    countPeople: (span, scope, excluding) => countPeople(db, span, scope, excluding),
    listCallerPeopleDays: (integration, span) => listCallerPeopleDays(db, integration, span),
    listServedVersions: (since) => listServedVersions(db, since),
    bucketFor: (from) => bucketFor(db, from),
    sumScopeRefusals: (scope, span, bucket) => sumScopeRefusals(db, scope, span, bucket),
    sumScopeShare: (scope, basis, since) => sumScopeShare(db, scope, basis, since),
    sumServedRequests: (span) => sumServedRequests(db, span),
    deleteExpiredTraffic: (now, retention) => deleteExpiredTraffic(db, now, retention),

    listIntegrations: () => listIntegrations(db),
    getIntegration: (key) => getIntegration(db, key),
    applyIntegrationClosures: (closures, now) => applyIntegrationClosures(db, closures, now),
    setIntegrationClientName: (key, name, at) => setIntegrationClientName(db, key, name, at),

    listPlans: (options) => listPlans(db, options),
    getPlan: (id) => getPlan(db, id),
    getPolicyVersion: () => getPolicyVersion(db),
    getPolicyVersionChange: () => getPolicyVersionChange(db),
    listPlanPauses: (query) => listPlanPauses(db, query),

    listAlerts: (options) => listAlerts(db, options),
    getAlert: (id) => getAlert(db, id),
    saveAlertEvaluation: (save) => saveAlertEvaluation(db, save),
    insertAlertDelivery: (delivery) => insertAlertDelivery(db, delivery),
    getAlertSetting: (key) => getAlertSetting(db, key),

    listSidecarNodes: () => listSidecarNodes(db),
    insertProbe: (probe) => insertProbe(db, probe),
    listLatestProbes: () => listLatestProbes(db),

    listBridgeRevocations: (now) => listBridgeRevocations(db, now),
    deleteExpiredBridgeRevocations: (now) => deleteExpiredBridgeRevocations(db, now),

    ...createAuditedChanges(db),

    claimNotices: (claims, now) => claimNotices(db, claims, now),
    finishNotice: (id, outcome, now) => finishNotice(db, id, outcome, now),
    listCallerNotices: (query) => listCallerNotices(db, query),
    insertCallerContact: (input, now, by) => insertCallerContact(db, input, now, by),
    listCallerContacts: (integrations) => listCallerContacts(db, integrations),

    claimDigest: (claim, now) => claimDigest(db, claim, now),
    finishDigest: (id, outcome, now) => finishDigest(db, id, outcome, now),
    listDigests: (query) => listDigests(db, query),

    getInstallSecret: () => getInstallSecret(db),
  };
}
