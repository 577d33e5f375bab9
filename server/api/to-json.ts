import type { UnknownBaseView } from '../views/load-unknown-base.js';
import type { CallerAliasRecord } from '../store/records/caller-alias-record.js';
import type { CallerPeopleDay } from '../store/records/caller-people.js';
import type { DryRun } from '../analysis/compute-dry-run.js';
import type { PlanStatus } from '../analysis/compute-plan-status.js';
import type { Trend } from '../analysis/compute-trend.js';
import type { AlertDeliveryRecord, AlertListing, AlertRecord, DeliverySummary } from '../store/records/alert-record.js';
import type { ProbeRecord } from '../store/records/probe-record.js';
import type { BridgeRevocationRecord } from '../store/records/bridge-revocation-record.js';
import type { PlanRecord } from '../store/records/plan-record.js';
import type { PlanPauseRecord } from '../store/records/plan-pause-record.js';
import type { AuditEventRecord } from '../store/records/audit-event-record.js';
import type { CallerContactRecord } from '../store/records/caller-contact-record.js';
import type { CallerNoticeRecord } from '../store/records/caller-notice-record.js';
import { pauseEndsAt } from '../analysis/plan-pause.js';
import type { FleetView } from '../views/load-fleet-view.js';
import type { EraUse } from '../views/load-callers-by-era.js';
import type { IntegrationView, IntegrationsView } from '../views/load-integration-views.js';
import type { PlanEnforcement } from '../views/load-plan-enforcement.js';
import type { PlanView } from '../views/load-plan-views.js';
import type { ShareView } from '../views/load-share-view.js';
import type { DryRunJson } from './dry-run-json.js';

/** Times leave the API as ISO-8601 UTC strings; everything else keeps its shape. */
export function iso(at: number): string;
export function iso(at: number | null | undefined): string | null;
export function iso(at: number | null | undefined): string | null {
  return at === null || at === undefined ? null : new Date(at).toISOString();
}

export function trendToJson(trend: Trend) {
  const projection = trend.projection === null ? null : { ...trend.projection, ...('date' in trend.projection ? { date: iso(trend.projection.date) } : {}) };
  return {
    ...trend,
    projection,
    projectedDate: iso(trend.projectedDate),
    line: trend.line.map((p) => ({ start: iso(p.start), share: p.share })),
  };
}

export function shareToJson(view: ShareView) {
  return {
    scope: view.scope,
    basis: view.basis,
    bucket: view.bucket,
    from: iso(view.from),
    to: iso(view.to),
    target: view.target,
    currentShare: view.currentShare,
    currentBridgedShare: view.currentBridgedShare,
    series: view.series.map((p) => ({ ...p, start: iso(p.start) })),
    trend: trendToJson(view.trend),
  };
}

export function statusToJson(status: PlanStatus) {
  return { ...status, projectedDate: iso(status.projectedDate) };
}

export function planRecordToJson(plan: PlanRecord) {
  return {
    id: plan.id,
    name: plan.name,
    scope: { kind: plan.scopeKind, value: plan.scopeValue },
    announceDate: plan.announceDate,
    retireDate: plan.retireDate,
    targetShare: plan.targetShare,
    basis: plan.basis,
    policyUrl: plan.policyUrl,
    brownouts: plan.brownouts.map((b) => ({ startsAt: iso(b.startsAt), endsAt: iso(b.endsAt), note: b.note })),
    action: plan.action,
    blockNewCallersFrom: plan.blockNewCallersFrom,
    quietDays: plan.quietDays,
    gate: plan.gate,
    exemptions: plan.exemptions,
    noticeDays: plan.noticeDays,
    /** The plan's key in the config file, when it is declared there (and read-only here). */
    declaredKey: plan.declaredKey,
    createdAt: iso(plan.createdAt),
    updatedAt: iso(plan.updatedAt),
    archivedAt: iso(plan.archivedAt),
  };
}

/** A notice to a caller about a plan's stage, and how its delivery went. */
export function noticeToJson(notice: CallerNoticeRecord) {
  return {
    id: notice.id,
    planId: notice.planId,
    integration: notice.integration,
    stage: notice.stage,
    stageAt: iso(notice.stageAt),
    daysBefore: notice.daysBefore,
    status: notice.status,
    node: notice.node,
    claimedAt: iso(notice.claimedAt),
    finishedAt: iso(notice.finishedAt),
    attempts: notice.attempts,
    lastError: notice.lastError,
    requests: notice.requests,
    versions: notice.versions,
  };
}

export function contactToJson(contact: CallerContactRecord) {
  return { ...contact, at: iso(contact.at) };
}

/** One audited change; `before` and `after` hold the fields that changed, as stored (times in epoch ms). */
export function auditEventToJson(event: AuditEventRecord) {
  return { id: event.id, at: iso(event.at), actor: event.actor, action: event.action, subject: event.subject, before: event.before, after: event.after };
}

/** A pause of a plan's refusals; `until` is when it ends or ended (resumed, or run out). */
export function pauseToJson(pause: PlanPauseRecord, active: boolean) {
  return {
    id: pause.id,
    planId: pause.planId,
    reason: pause.reason,
    startedAt: iso(pause.startedAt),
    endsAt: iso(pause.endsAt),
    resumedAt: iso(pause.resumedAt),
    until: iso(pauseEndsAt(pause)),
    active,
    pausedBy: pause.pausedBy,
    resumedBy: pause.resumedBy,
  };
}

export function enforcementToJson(enforcement: PlanEnforcement) {
  const { gate } = enforcement;
  return {
    action: enforcement.action,
    phase: enforcement.phase,
    timeline: enforcement.timeline.map((w) => ({
      ...w,
      at: iso(w.at),
      endsAt: iso(w.endsAt),
      counts: w.counts === null ? null : { ...w.counts, from: iso(w.counts.from), to: iso(w.counts.to) },
    })),
    gate: { ...gate, cutFrom: iso(gate.cutFrom), holdingCallers: gate.holdingCallers.map((c) => ({ integration: c.integration, lastUse: iso(c.lastUse) })) },
    exemptions: enforcement.exemptions.map((e) => ({ ...e, endsAt: iso(e.endsAt) })),
    pause: enforcement.pause === null ? null : { ...enforcement.pause, startedAt: iso(enforcement.pause.startedAt), endsAt: iso(enforcement.pause.endsAt) },
    pauses: enforcement.pauses.map((p) => pauseToJson(p, p.id === enforcement.pause?.id)),
  };
}

/** A plan with its judgement and enforcement; `withSeries` adds the daily curve the dashboard draws. */
export function planViewToJson(view: PlanView, withSeries: boolean) {
  const { series, ...share } = shareToJson(view.share);
  return {
    ...planRecordToJson(view.plan),
    status: statusToJson(view.status),
    currentShare: view.share.currentShare,
    trend: share.trend,
    enforcement: enforcementToJson(view.enforcement),
    ...(withSeries ? { series } : {}),
  };
}

function eraUseToJson(use: EraUse | null) {
  return use === null ? null : { ...use, firstSeen: iso(use.firstSeen), lastSeen: iso(use.lastSeen) };
}

export function integrationToJson(view: IntegrationView) {
  return {
    ...view,
    firstSeen: iso(view.firstSeen),
    lastSeen: iso(view.lastSeen),
    lastLegacySeen: iso(view.lastLegacySeen),
    updatedAt: iso(view.updatedAt),
    autoClosedAt: iso(view.autoClosedAt),
    reopenedAt: iso(view.reopenedAt),
    eras: { legacy: eraUseToJson(view.eras.legacy), modern: eraUseToJson(view.eras.modern) },
    deadlines: view.deadlines.map((d) => ({ ...d, lastUsedDay: iso(d.lastUsedDay) })),
  };
}

/** GET /unknown-base: claims only, labelled as such. */
export function unknownBaseToJson(view: UnknownBaseView) {
  return { from: iso(view.from), to: iso(view.to), totals: view.totals, claims: view.claims };
}

/** A name joined into a caller. */
export function aliasToJson(row: CallerAliasRecord) {
  return { ...row, createdAt: iso(row.createdAt) };
}

/** One caller's distinct people per UTC day (GET /integrations/:key/people). */
export function callerPeopleToJson(integration: string, span: { from: number; to: number }, days: readonly CallerPeopleDay[]) {
  return { integration, from: iso(span.from), to: iso(span.to), days: days.map((d) => ({ ...d, day: iso(d.day) })) };
}

/** One page of the callers, most legacy first; the split is always over every caller. */
export function integrationsToJson(view: IntegrationsView, page: { offset: number; limit: number }) {
  const total = view.integrations.length;
  const end = Math.min(total, page.offset + page.limit);
  return {
    windowDays: view.windowDays,
    split: view.split,
    integrations: view.integrations.slice(page.offset, end).map(integrationToJson),
    page: { offset: page.offset, limit: page.limit, total, nextOffset: end < total ? end : null },
  };
}

export function alertToJson(alert: AlertRecord) {
  return {
    ...alert,
    firstFiredAt: iso(alert.firstFiredAt),
    lastFiredAt: iso(alert.lastFiredAt),
    resolvedAt: iso(alert.resolvedAt),
    lastEvaluatedAt: iso(alert.lastEvaluatedAt),
  };
}

export function deliverySummaryToJson(summary: DeliverySummary) {
  return { ...summary, lastAt: iso(summary.lastAt) };
}

/** An alert as the lists show it: with what the webhooks made of its transitions. */
export function alertListingToJson({ deliverySummary, ...alert }: AlertListing) {
  return { ...alertToJson(alert), deliverySummary: deliverySummaryToJson(deliverySummary) };
}

export function alertsToJson(alerts: readonly AlertListing[]) {
  return { alerts: alerts.map(alertListingToJson) };
}

export function deliveryToJson({ alertId: _alertId, ...delivery }: AlertDeliveryRecord) {
  return { ...delivery, at: iso(delivery.at) };
}

function probeToJson(probe: ProbeRecord) {
  return { ...probe, at: iso(probe.at) };
}

export function fleetToJson(view: FleetView, configured: readonly string[]) {
  const byNode = new Map(view.nodes.map((n) => [n.node, n]));
  return {
    configured,
    checkedAt: iso(view.checkedAt),
    expected: view.expected,
    drift: view.drift,
    down: view.down,
    nodes: view.probes.map((probe) => ({ ...probeToJson(probe), differs: byNode.get(probe.node)?.differs ?? false, down: byNode.get(probe.node)?.down ?? false })),
    policyVersion: view.policyVersion,
    sidecars: view.sidecars.map((s) => ({ node: s.node, kind: s.kind, lastFlushAt: iso(s.lastFlushAt), policyVersion: s.policyVersion, stale: s.stale, lagging: s.lagging })),
  };
}

export function dryRunToJson(planId: number, report: DryRun): DryRunJson {
  return {
    planId,
    at: report.at,
    window: { from: iso(report.window.from), to: iso(report.window.to), days: report.window.days },
    refusedShare: report.refusedShare,
    totals: report.totals,
    callers: report.callers.map((c) => ({
      integration: c.integration,
      displayName: c.displayName,
      owner: c.owner,
      contact: c.contact,
      identifiable: c.identifiable,
      requests: c.requests,
      requestsPerDay: c.requestsPerDay,
      lastSeen: iso(c.lastSeen),
      versions: c.versions,
      transports: c.transports,
      migration: c.migration,
      told: { notices: c.told.notices, lastNoticeAt: iso(c.told.lastNoticeAt), lastContactAt: iso(c.told.lastContactAt) },
      savedBy: c.savedBy,
      people: c.people,
    })),
    live: report.live === null ? null : { wouldBlock: report.live.wouldBlock, byCaller: Object.fromEntries(report.live.byCaller) },
  };
}

export function bridgeRevocationToJson(revocation: BridgeRevocationRecord) {
  return { sessionId: revocation.sessionId, revokedAt: iso(revocation.revokedAt), expiresAt: iso(revocation.expiresAt), reason: revocation.reason };
}
