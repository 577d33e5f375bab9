import type { ClaimedClientRow } from './records/claimed-client-row.js';
import type { CallerAliasRecord, CallerJoinInput, CallerJoinRefusal } from './records/caller-alias-record.js';
import type { CallerPeople, CallerPeopleDay } from './records/caller-people.js';
import type { Bucket } from '../lib/time-bucket.js';
import type { ShareBasis } from '../protocol/work-request.js';
import type { NodeHeartbeat, SequencedBatch, TallyBatch, TallyWrite } from '../tally/tally-cell.js';

export type { SequencedBatch, TallyWrite };
import type { AlertDeliveryInput, AlertDeliveryRecord, AlertDraft, AlertListing, AlertRecord, AlertState, AlertWithDeliveries } from './records/alert-record.js';
import type { BridgeRevocationInput, BridgeRevocationRecord } from './records/bridge-revocation-record.js';
import type { TrafficRetention } from './records/traffic-retention.js';
import type { AlertSettingKey } from './records/alert-setting-key.js';
import type { PlanChanges, PlanInput, PlanRecord, PlanScopeKind } from './records/plan-record.js';
import type { ProbeInsert, ProbeRecord } from './records/probe-record.js';
import type { CallerRefusals } from './records/caller-refusals.js';
import type { CallerVolume } from './records/caller-volume.js';
import type { IntegrationChanges, IntegrationClosure, IntegrationRecord } from './records/integration-record.js';
import type { NewLegacyCallers } from './records/new-legacy-callers.js';
import type { ScopeCallerRow } from './records/scope-caller-row.js';
import type { BridgedShareRow, ShareDayRow } from './records/share-day-row.js';
import type { SidecarNodeRecord } from './records/sidecar-node-record.js';
import type { TrafficQuery, TrafficSeries } from './records/traffic-series.js';
import type { ScopeRefusals } from './records/scope-refusals.js';
import type { DeclaredPlan, DeclaredPlansSync } from './records/declared-plan.js';
import type { PauseInput, PlanPauseQuery, PlanPauseRecord } from './records/plan-pause-record.js';
import type { AuditEventRecord, AuditQuery } from './records/audit-event-record.js';
import type { CallerContactRecord, ContactInput } from './records/caller-contact-record.js';
import type { CallerNoticeRecord, NoticeClaim, NoticeOutcome, NoticeQuery } from './records/caller-notice-record.js';
import type { DigestClaim, DigestOutcome, DigestQuery, DigestRecord } from './records/digest-record.js';

export type StoreDialect = 'sqlite' | 'postgres';

export interface PlanScope {
  kind: PlanScopeKind;
  value: string;
}

export interface Span {
  from: number;
  to: number;
}

/** What evaluating the alert rules changed, saved in one transaction. */
export interface AlertEvaluationSave {
  changed: readonly AlertDraft[];
  dropped: readonly string[];
  /** Settings to save beside them (the dropped-events watermark, when the run was). */
  settings?: readonly { key: AlertSettingKey; value: string }[];
}

/**
 * Everything above the store reads and writes through this: the API, the views, the alerts, the
 * policy refresher and the flusher. SQLite (embedded, one node) and Postgres (shared by a fleet)
 * implement it alike; one contract suite runs against both. Every call does its writes in one
 * statement or one transaction (a flush's sightings, which merge idempotently, may follow its counts
 * in a second), so no caller holds a transaction open across its own awaits.
 */
export interface Store {
  readonly dialect: StoreDialect;
  /** Where the store is, for messages: a file path, or the URL with its password masked. */
  readonly location: string;
  close(): Promise<void>;

  // Counts
  /**
   * Writes the batches' counts in order, each once per stream and sequence number, with the node's
   * heartbeat when given, in one transaction; and the batches' caller sightings, merged idempotently.
   */
  writeTally(batches: readonly SequencedBatch[], now: number, heartbeat?: NodeHeartbeat): Promise<TallyWrite>;
  /** Spooled batches from before stream ids (a string id each), written once by that id. */
  writeLegacySpoolBatches(entries: readonly { batchId: string; batch: TallyBatch }[], now: number): Promise<TallyWrite>;
  listTraffic(query: TrafficQuery): Promise<TrafficSeries>;
  /** The share rollup's rows in [from, to), of one node when given. */
  listShareRows(from: number, to: number, node?: string): Promise<ShareDayRow[]>;
  /** Served requests the legacy bridge answered (reason `bridge`) per UTC day in [from, to), summed over nodes or of one node. */
  listBridgedShareRows(from: number, to: number, node?: string): Promise<BridgedShareRow[]>;
  listLegacyCallerCounts(from: number, to: number): Promise<{ day: number; count: number }[]>;
  /** Distinct callers with served modern work, per UTC day. */
  listModernCallerCounts(from: number, to: number): Promise<{ day: number; count: number }[]>;
  listNewLegacyCallers(sinceDay: number): Promise<NewLegacyCallers>;
  listCallerRefusals(hourStart: number): Promise<CallerRefusals[]>;
  listCallerVolumes(since: number): Promise<CallerVolume[]>;
  listScopeLastUse(scope: PlanScope, since: number): Promise<Map<string, number>>;
  listScopeCallersBefore(scope: PlanScope, before: number): Promise<Set<string>>;
  listScopeLastTraffic(scope: PlanScope, since: number): Promise<Map<string, number>>;
  listScopeCallers(scope: PlanScope, span: Span): Promise<ScopeCallerRow[]>;
  listServedVersions(since: number): Promise<string[]>;
  /** The finest traffic table still whole from `from` on. */
  bucketFor(from: number): Promise<Bucket>;
  sumScopeRefusals(scope: PlanScope, span: Span, bucket: Bucket): Promise<ScopeRefusals>;
  sumScopeShare(scope: PlanScope, basis: ShareBasis, since: number): Promise<{ inScope: number; total: number }>;
  sumServedRequests(span: Span): Promise<number>;
  /** Each caller's distinct people (by era and in all) on the days in the span, on a plan scope's path when given. */
  listCallerPeople(span: Span, scope?: PlanScope): Promise<CallerPeople[]>;
  /** Distinct people over every caller (but those `excluding` names) on the days in the span: one person behind two callers counts once. */
  countPeople(span: Span, scope?: PlanScope, excluding?: readonly string[]): Promise<Omit<CallerPeople, 'integration'>>;
  /** The unknown base's served work per claimed client (clientInfo, else a User-Agent's product) on the days in the span. */
  listClaimedClients(span: Span): Promise<ClaimedClientRow[]>;
  /** One caller's distinct people per UTC day in the span. */
  listCallerPeopleDays(integration: string, span: Span): Promise<CallerPeopleDay[]>;
  deleteExpiredTraffic(now: number, retention: TrafficRetention): Promise<number>;

  // Integrations
  listIntegrations(): Promise<IntegrationRecord[]>;
  getIntegration(key: string): Promise<IntegrationRecord | undefined>;
  /** Audited, as `actor` (see AuditAction). */
  updateIntegration(key: string, changes: IntegrationChanges, now: number, actor?: string): Promise<IntegrationRecord | undefined>;
  /** Names joined into other callers (see caller-of.ts): every read folds them. */
  listCallerAliases(): Promise<CallerAliasRecord[]>;
  /** Joins names into a caller (audited, bumping the policy version), or answers why it cannot. */
  joinCallers(input: CallerJoinInput, now: number): Promise<{ joined: CallerAliasRecord[] } | CallerJoinRefusal>;
  /** Undoes one join (audited, bumping the policy version); undefined when the name was not joined. */
  unjoinCaller(alias: string, by: string, now: number): Promise<CallerAliasRecord | undefined>;
  /** Applies the closures in one transaction; answers those that changed a row. */
  applyIntegrationClosures(closures: readonly IntegrationClosure[], now: number): Promise<IntegrationClosure[]>;
  /**
   * Records a fetch of the caller's Client ID Metadata Document at `at`: the `client_name` it gave,
   * or null for a fetch that gave none, which keeps an earlier name and records only the time.
   * Not audited: it is what the application says of itself, not an operator's edit. Answers whether the caller exists.
   */
  setIntegrationClientName(key: string, name: string | null, at: number): Promise<boolean>;

  // Plans and the policy version
  listPlans(options?: { includeArchived?: boolean }): Promise<PlanRecord[]>;
  getPlan(id: number): Promise<PlanRecord | undefined>;
  /** Plan changes are audited as `actor`, in their own transaction; the sync as the config file. */
  insertPlan(input: PlanInput, now: number, actor?: string): Promise<PlanRecord>;
  updatePlan(id: number, changes: PlanChanges, now: number, actor?: string): Promise<PlanRecord | undefined>;
  syncDeclaredPlans(declared: readonly DeclaredPlan[], now: number): Promise<DeclaredPlansSync>;
  getPolicyVersion(): Promise<number>;
  getPolicyVersionChange(): Promise<{ version: number; changedAt: number | null }>;
  /** Pauses the plans' refusals from `now` (replacing a pause in force), with the policy version's bump. */
  pausePlans(input: PauseInput, now: number): Promise<PlanPauseRecord[]>;
  /** Ends the pauses in force of these plans, or of all; answers those it ended (bumping the version when any). */
  resumePlans(planIds: readonly number[] | 'all', by: string, now: number): Promise<PlanPauseRecord[]>;
  listPlanPauses(query?: PlanPauseQuery): Promise<PlanPauseRecord[]>;

  // Alerts
  listAlerts(options?: { state?: AlertState }): Promise<AlertListing[]>;
  getAlert(id: number): Promise<AlertWithDeliveries | undefined>;
  saveAlertEvaluation(save: AlertEvaluationSave): Promise<AlertRecord[]>;
  insertAlertDelivery(delivery: AlertDeliveryInput): Promise<AlertDeliveryRecord>;
  getAlertSetting(key: AlertSettingKey): Promise<string | undefined>;

  // Fleet
  listSidecarNodes(): Promise<SidecarNodeRecord[]>;
  insertProbe(probe: ProbeInsert): Promise<ProbeRecord>;
  listLatestProbes(): Promise<ProbeRecord[]>;

  // Legacy-bridge sessions revoked, read by every node's bridge
  /** Revokes a session; again, it keeps the first revocation and only moves its expiry later. */
  upsertBridgeRevocation(input: BridgeRevocationInput, now: number, actor?: string): Promise<BridgeRevocationRecord>;
  /** The revocations whose token has not expired at `now`. */
  listBridgeRevocations(now: number): Promise<BridgeRevocationRecord[]>;
  /** Deletes those whose token has expired (the retention pass); answers how many. */
  deleteExpiredBridgeRevocations(now: number): Promise<number>;

  // Notices to callers, and contacts made by hand
  /** Inserts the claims whose notice is not there yet; answers those this call inserted (this node's to send). */
  claimNotices(claims: readonly NoticeClaim[], now: number): Promise<CallerNoticeRecord[]>;
  /** Records a claimed notice's delivery, audited; undefined when it was not `sending`. */
  finishNotice(id: number, outcome: NoticeOutcome, now: number): Promise<CallerNoticeRecord | undefined>;
  listCallerNotices(query?: NoticeQuery): Promise<CallerNoticeRecord[]>;
  insertCallerContact(input: ContactInput, now: number, by: string): Promise<CallerContactRecord>;
  listCallerContacts(integrations?: readonly string[]): Promise<CallerContactRecord[]>;

  // The weekly digest
  /** Inserts the claim unless a digest with its key exists; answers the row only to the call that inserted it. */
  claimDigest(claim: DigestClaim, now: number): Promise<DigestRecord | undefined>;
  /** Records how a claimed digest's delivery went; undefined when it was not `sending`. */
  finishDigest(id: number, outcome: DigestOutcome, now: number): Promise<DigestRecord | undefined>;
  /** Digests, newest first. */
  listDigests(query?: DigestQuery): Promise<DigestRecord[]>;

  // The audit trail
  /** Every audited change, newest first (see audit-changes.ts). */
  listAuditEvents(query: AuditQuery): Promise<AuditEventRecord[]>;

  /** The per-install secret caller fingerprints are keyed with, created on first use. */
  getInstallSecret(): Promise<string>;
}
