import type { Store } from '../store.js';
import { createAuditedChanges } from './audited-changes.js';
import { claimDigest, finishDigest, listDigests } from './digests.js';
import { claimNotices, finishNotice, insertCallerContact, listCallerContacts, listCallerNotices } from './caller-notices.js';
import { deleteAlerts } from './delete-alerts.js';
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
import type { SqliteDatabase } from './open-database.js';
import { getPolicyVersion, getPolicyVersionChange } from './policy-version.js';
import { setIntegrationClientName } from './set-integration-client-name.js';
import { bucketFor, sumScopeRefusals } from './sum-scope-refusals.js';
import { sumScopeShare } from './sum-scope-share.js';
import { sumServedRequests } from './sum-served-requests.js';
import { updateIntegrationClosure } from './update-integration-closure.js';
import { upsertAlertSetting } from './upsert-alert-setting.js';
import { upsertAlerts } from './upsert-alerts.js';
import { writeLegacySpoolBatches } from './write-legacy-spool-batches.js';
import { createStreamWriter } from './write-tally-streams.js';

/**
 * The embedded store behind the async interface. better-sqlite3 answers synchronously, so every
 * call completes before it returns its promise: nothing interleaves inside a transaction.
 */
export function createSqliteStore(database: SqliteDatabase): Store {
  const { db } = database;
  const writeStreams = createStreamWriter(db);
  return {
    dialect: 'sqlite',
    location: database.path,
    close: async () => database.close(),

    writeTally: async (batches, now, heartbeat) => writeStreams(batches, now, heartbeat),
    writeLegacySpoolBatches: async (entries, now) => writeLegacySpoolBatches(db, entries, now),
    listTraffic: async (query) => listTraffic(db, query),
    listShareRows: async (from, to, node) => listShareRows(db, from, to, node),
    listBridgedShareRows: async (from, to, node) => listBridgedShareRows(db, from, to, node),
    listLegacyCallerCounts: async (from, to) => listLegacyCallerCounts(db, from, to),
    listModernCallerCounts: async (from, to) => listModernCallerCounts(db, from, to),
    listNewLegacyCallers: async (sinceDay) => listNewLegacyCallers(db, sinceDay),
    listCallerRefusals: async (hourStart) => listCallerRefusals(db, hourStart),
    listCallerVolumes: async (since) => listCallerVolumes(db, since),
    listScopeLastUse: async (scope, since) => listScopeLastUse(db, scope, since),
    listScopeCallersBefore: async (scope, before) => listScopeCallersBefore(db, scope, before),
    listScopeLastTraffic: async (scope, since) => listScopeLastTraffic(db, scope, since),
    listScopeCallers: async (scope, span) => listScopeCallers(db, scope, span),
    listCallerAliases: async () => listCallerAliases(db),
    joinCallers: async (input, now) => joinCallers(db, input, now),
    unjoinCaller: async (alias, by, now) => unjoinCaller(db, alias, by, now),
    listCallerPeople: async (span, scope) => listCallerPeople(db, span, scope),
    listClaimedClients: async (span) => listClaimedClients(db, span),
    countPeople: async (span, scope, excluding) => countPeople(db, span, scope, excluding),
    listCallerPeopleDays: async (integration, span) => listCallerPeopleDays(db, integration, span),
    listServedVersions: async (since) => listServedVersions(db, since),
    bucketFor: async (from) => bucketFor(db, from),
    sumScopeRefusals: async (scope, span, bucket) => sumScopeRefusals(db, scope, span, bucket),
    sumScopeShare: async (scope, basis, since) => sumScopeShare(db, scope, basis, since),
    sumServedRequests: async (span) => sumServedRequests(db, span),
    deleteExpiredTraffic: async (now, retention) => deleteExpiredTraffic(db, now, retention),

    listIntegrations: async () => listIntegrations(db),
    getIntegration: async (key) => getIntegration(db, key),
    applyIntegrationClosures: async (closures, now) => db.transaction(() => closures.filter((closure) => updateIntegrationClosure(db, closure, now))),
    setIntegrationClientName: async (key, name, at) => setIntegrationClientName(db, key, name, at),

    listPlans: async (options) => listPlans(db, options),
    getPlan: async (id) => getPlan(db, id),
    getPolicyVersion: async () => getPolicyVersion(db),
    getPolicyVersionChange: async () => getPolicyVersionChange(db),
    listPlanPauses: async (query) => listPlanPauses(db, query),

    listAlerts: async (options) => listAlerts(db, options),
    getAlert: async (id) => getAlert(db, id),
    saveAlertEvaluation: async (save) =>
      db.transaction(() => {
        const saved = upsertAlerts(db, save.changed);
        deleteAlerts(db, save.dropped);
        for (const setting of save.settings ?? []) upsertAlertSetting(db, setting.key, setting.value);
        return saved;
      }),
    insertAlertDelivery: async (delivery) => insertAlertDelivery(db, delivery),
    getAlertSetting: async (key) => getAlertSetting(db, key),

    listSidecarNodes: async () => listSidecarNodes(db),
    insertProbe: async (probe) => insertProbe(db, probe),
    listLatestProbes: async () => listLatestProbes(db),

    listBridgeRevocations: async (now) => listBridgeRevocations(db, now),
    deleteExpiredBridgeRevocations: async (now) => deleteExpiredBridgeRevocations(db, now),

    ...createAuditedChanges(db),

    claimNotices: async (claims, now) => claimNotices(db, claims, now),
    finishNotice: async (id, outcome, now) => finishNotice(db, id, outcome, now),
    listCallerNotices: async (query) => listCallerNotices(db, query),
    insertCallerContact: async (input, now, by) => insertCallerContact(db, input, now, by),
    listCallerContacts: async (integrations) => listCallerContacts(db, integrations),

    claimDigest: async (claim, now) => claimDigest(db, claim, now),
    finishDigest: async (id, outcome, now) => finishDigest(db, id, outcome, now),
    listDigests: async (query) => listDigests(db, query),

    getInstallSecret: async () => getInstallSecret(db),
  };
}
