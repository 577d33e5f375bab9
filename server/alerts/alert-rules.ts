/**
 * The alert rules as data: one entry per rule with its severity, how many consecutive positive
 * evaluations it needs before it fires, and a pure check over the evaluation context.
 * Invariant: a check never throws and returns at most one finding per subject.
 */
import { DAY_MS } from '../analysis/compute-week-start.js';
import { formatDay, formatPercent, formatPointsPerWeek } from '../analysis/format-numbers.js';
import { exemptionEndsAt } from '../analysis/plan-clock.js';
import { isPauseActive, pauseEndsAt } from '../analysis/plan-pause.js';
import { REFUSAL_BASELINE_HOURS } from '../store/records/caller-refusals.js';
import { UNIDENTIFIED_KEYS } from '../views/unidentified-keys.js';
import type { AlertContext, AlertPlan } from './alert-context.js';

export type AlertSeverity = 'info' | 'warning' | 'critical';

export type AlertRuleId =
  | 'curve-flattened'
  | 'projection-misses-retire-date'
  | 'new-legacy-integration'
  | 'retire-date-approaching'
  | 'metering-loss'
  | 'fleet-drift'
  | 'fleet-node-unavailable'
  | 'exemption-expiring'
  | 'gate-holding-near-backstop'
  | 'refusal-spike'
  | 'plan-paused';

/** What a rule found about one subject; the alert's fingerprint is `${rule}:${subject}`. */
export interface Finding {
  subject: string;
  summary: string;
  details: Record<string, unknown>;
}

export interface AlertRule {
  id: AlertRuleId;
  severity: AlertSeverity;
  /** Consecutive evaluations that must find a subject before its alert fires. */
  consecutive: number;
  description: string;
  check(context: AlertContext): Finding[];
}

/** A caller stays "new" this long after its first served-legacy day. */
export const NEW_CALLER_DAYS = 7;

/** exemption-expiring speaks up this long before an exemption lapses. */
export const EXEMPTION_NOTICE_DAYS = 7;

/** gate-holding-near-backstop speaks up this long before the backstop ends the gate's wait. */
export const BACKSTOP_NOTICE_DAYS = 14;

/** Callers named in a summary; the details list them all. */
const NAMED_CALLERS = 5;

const iso = (at: number | null | undefined) => (at === null || at === undefined ? null : new Date(at).toISOString());

function daysUntil(at: number, now: number): string {
  const days = Math.ceil((at - now) / DAY_MS);
  return `${days} day${days === 1 ? '' : 's'}`;
}

function callerName(context: AlertContext, key: string): string {
  const name = context.displayNames.get(key);
  return name === undefined ? key : `${name} (${key})`;
}

function planDetails(plan: AlertPlan): Record<string, unknown> {
  return { planId: plan.id, planName: plan.name, scope: plan.scopeLabel, retireDate: plan.retireDate, currentShare: plan.currentShare, targetShare: plan.targetShare };
}

/** Above target: there is still legacy traffic the plan has to get rid of. */
function isAboveTarget(plan: AlertPlan): plan is AlertPlan & { currentShare: number } {
  return plan.currentShare !== null && plan.currentShare > plan.targetShare;
}

function checkCurveFlattened(context: AlertContext): Finding[] {
  return context.plans
    .filter(isAboveTarget)
    .filter((plan) => plan.trend.flat && plan.status.status !== 'met')
    .map((plan) => ({
      subject: `plan:${plan.id}`,
      summary: `Plan "${plan.name}": ${plan.scopeLabel} share has stopped falling at ${formatPercent(plan.currentShare)} (${formatPointsPerWeek(plan.trend.slopePerWeek ?? 0)}), above the ${formatPercent(plan.targetShare)} target`,
      details: { ...planDetails(plan), slopePerWeek: plan.trend.slopePerWeek, weeks: plan.trend.weeks, trend: plan.trend.reason },
    }));
}

function checkProjectionMisses(context: AlertContext): Finding[] {
  return context.plans
    .filter((plan) => {
      const { status, projectedDate } = plan.status;
      // An at-risk plan whose projection is in time (a decline not yet significant) is not a miss.
      return (status === 'at-risk' || status === 'off-track') && isAboveTarget(plan) && (projectedDate === null || projectedDate > plan.retireDay);
    })
    .map((plan) => ({
      subject: `plan:${plan.id}`,
      summary: `Plan "${plan.name}" is ${plan.status.status}: ${plan.status.reason}`,
      details: { ...planDetails(plan), status: plan.status.status, projectedDate: iso(plan.status.projectedDate), reason: plan.status.reason },
    }));
}

function checkNewLegacyIntegration(context: AlertContext): Finding[] {
  const since = context.legacyMeteredSince;
  return context.newLegacyCallers
    .filter((caller) => !UNIDENTIFIED_KEYS.has(caller.integration))
    .filter((caller) => context.now - caller.firstDay < NEW_CALLER_DAYS * DAY_MS)
    // Callers already there on the first metered day are the installed base, not newcomers.
    .filter((caller) => since !== null && caller.firstDay > since)
    .map((caller) => {
      const name = caller.displayName ?? caller.integration;
      const claims = caller.clientInfoName === null ? '' : ` (claims to be "${caller.clientInfoName}")`;
      return {
        subject: `integration:${caller.integration}`,
        summary: `New legacy caller ${name}${claims}: first served legacy work on ${formatDay(caller.firstDay)}`,
        details: { integration: caller.integration, displayName: caller.displayName, claimsToBe: caller.clientInfoName, firstLegacyDay: formatDay(caller.firstDay) },
      };
    });
}

function checkRetireDateApproaching(context: AlertContext): Finding[] {
  const thresholds = [...new Set(context.settings.approachingDays)].sort((a, b) => b - a);
  return context.plans.filter(isAboveTarget).flatMap((plan) => {
    if (context.now >= plan.retireDay) return [];
    const daysLeft = Math.ceil((plan.retireDay - context.now) / DAY_MS);
    return thresholds
      .filter((days) => daysLeft <= days)
      .map((days) => ({
        subject: `plan:${plan.id}:T-${days}`,
        summary: `Plan "${plan.name}" retires on ${plan.retireDate}, in ${daysLeft} day${daysLeft === 1 ? '' : 's'}, with ${plan.scopeLabel} share still at ${formatPercent(plan.currentShare)}, above the ${formatPercent(plan.targetShare)} target`,
        details: { ...planDetails(plan), thresholdDays: days, daysToRetire: daysLeft },
      }));
  });
}

function checkMeteringLoss(context: AlertContext): Finding[] {
  const m = context.metering;
  if (m === null) return [];
  // The dropped count lives in process memory: a smaller number than last time means a restart, counting from 0.
  const baseline = m.previousDroppedEvents === null || m.droppedEvents < m.previousDroppedEvents ? 0 : m.previousDroppedEvents;
  const newlyDropped = m.droppedEvents - baseline;
  const lastFlush = m.lastFlushAt ?? m.watchingSince;
  const minutesSinceFlush = Math.floor((context.now - lastFlush) / 60_000);
  const problems: string[] = [];
  if (newlyDropped > 0) problems.push(`${newlyDropped} events dropped since the last check`);
  if (m.consecutiveFailures > 0) problems.push(`${m.consecutiveFailures} consecutive failed flushes${m.lastError === undefined ? '' : ` (${m.lastError})`}`);
  if (context.now - lastFlush >= context.settings.noFlushMinutes * 60_000) problems.push(`no flush for ${minutesSinceFlush} minutes`);
  if (problems.length === 0) return [];
  return [
    {
      subject: 'metering',
      summary: `Metering is losing data: ${problems.join('; ')}`,
      details: {
        droppedEvents: m.droppedEvents,
        newlyDropped,
        consecutiveFailures: m.consecutiveFailures,
        lastError: m.lastError ?? null,
        lastFlushAt: iso(m.lastFlushAt),
        minutesSinceFlush,
      },
    },
  ];
}

function checkFleetDrift(context: AlertContext): Finding[] {
  const { fleet } = context;
  const findings: Finding[] = [];
  if (fleet.drift) {
    const differing = fleet.nodes.filter((n) => n.differs);
    const sets = differing.map((n) => `${n.node} serves ${n.versions.join(', ') || 'nothing'}`).join('; ');
    findings.push({
      subject: 'fleet',
      summary: `The fleet is not uniform: most nodes serve ${fleet.expected?.join(', ') ?? 'nothing'}, but ${sets}`,
      details: { expected: fleet.expected, nodes: fleet.nodes },
    });
  }
  // A sidecar on an old policy lets through (or refuses) what the rest of the fleet does not.
  for (const sidecar of fleet.sidecars.filter((s) => s.lagging)) {
    findings.push({
      subject: `node:${sidecar.node}`,
      summary: `Sidecar ${sidecar.node} (${sidecar.kind}) still runs policy version ${sidecar.policyVersion} at its flush of ${iso(sidecar.lastFlushAt)}; the stored policy is at version ${fleet.policyVersion}`,
      details: { node: sidecar.node, kind: sidecar.kind, policyVersion: sidecar.policyVersion, storedPolicyVersion: fleet.policyVersion, lastFlushAt: iso(sidecar.lastFlushAt), stale: sidecar.stale },
    });
  }
  return findings;
}

function checkFleetNodeUnavailable(context: AlertContext): Finding[] {
  return context.fleet.probes
    .filter((probe) => probe.state !== 'ready')
    .map((probe) => ({
      subject: `node:${probe.node}`,
      summary: `Fleet node ${probe.node} is ${probe.state} at its latest check: ${probe.detail}`,
      details: { node: probe.node, target: probe.target, state: probe.state, evidence: probe.evidenceCode, checkedAt: iso(probe.at) },
    }));
}

function checkExemptionExpiring(context: AlertContext): Finding[] {
  const { now } = context;
  // Under observe an exemption changes nothing, so its end is no news.
  return context.plans
    .filter((plan) => plan.action !== 'observe')
    .flatMap((plan) =>
      plan.exemptions
        .filter((exemption) => {
          const endsAt = exemptionEndsAt(exemption.until);
          return now < endsAt && endsAt - now <= EXEMPTION_NOTICE_DAYS * DAY_MS;
        })
        .map((exemption) => {
          const endsAt = exemptionEndsAt(exemption.until);
          return {
            subject: `plan:${plan.id}:exemption:${exemption.integration}`,
            summary: `Plan "${plan.name}" (${plan.action}): the exemption of ${callerName(context, exemption.integration)} ends after ${exemption.until}, in ${daysUntil(endsAt, now)}`,
            details: { planId: plan.id, planName: plan.name, action: plan.action, integration: exemption.integration, until: exemption.until, endsAt: iso(endsAt), note: exemption.note },
          };
        }),
    );
}

/** Whether the gate holds the cut today, or would if the retire date were today. */
function gateHolds(gate: NonNullable<AlertPlan['gate']>): boolean {
  const { state } = gate;
  return state.kind === 'holding' || (state.kind === 'before-retire' && (state.holdingCallers.length > 0 || state.shareAboveMax));
}

function checkGateHoldingNearBackstop(context: AlertContext): Finding[] {
  const { now } = context;
  return context.plans.flatMap((plan) => {
    const gate = plan.gate;
    // Only a plan that cuts (or rehearses the cut) has a cut for the gate to hold.
    if (plan.action !== 'deny' && plan.action !== 'dryrun') return [];
    if (gate === null || !gateHolds(gate) || now >= gate.backstopAt || gate.backstopAt - now > BACKSTOP_NOTICE_DAYS * DAY_MS) return [];
    const callers = gate.state.holdingCallers;
    const reasons: string[] = [];
    if (callers.length > 0) {
      const named = callers.slice(0, NAMED_CALLERS).map((c) => callerName(context, c.integration));
      const more = callers.length > NAMED_CALLERS ? ` and ${callers.length - NAMED_CALLERS} more` : '';
      reasons.push(`${named.join(', ')}${more} used the scope in the last ${gate.quietDays} days`);
    }
    if (gate.state.shareAboveMax && gate.maxShare !== null) reasons.push(`the share is above the gate's ${formatPercent(gate.maxShare)} maximum`);
    return [
      {
        subject: `plan:${plan.id}`,
        summary: `Plan "${plan.name}": the gate still holds the cut ${daysUntil(gate.backstopAt, now)} before its backstop on ${gate.backstopDate}: ${reasons.join('; ')}`,
        details: {
          planId: plan.id,
          planName: plan.name,
          action: plan.action,
          backstopDate: gate.backstopDate,
          gate: gate.state.kind,
          words: gate.state.words,
          holdingCallers: callers.map((c) => ({ integration: c.integration, displayName: context.displayNames.get(c.integration) ?? null, lastUsedDay: formatDay(c.lastUse) })),
          shareAboveMax: gate.state.shareAboveMax,
          maxShare: gate.maxShare,
        },
      },
    ];
  });
}

function checkRefusalSpike(context: AlertContext): Finding[] {
  const { refusalSpikeMinBlocked: minBlocked, refusalSpikeFactor: factor } = context.settings;
  const { hourStart } = context.refusals;
  return context.refusals.callers
    .filter((caller) => !UNIDENTIFIED_KEYS.has(caller.integration))
    .flatMap((caller) => {
      const hourlyMean = caller.dayBefore / REFUSAL_BASELINE_HOURS;
      if (caller.inHour < minBlocked || caller.inHour < factor * hourlyMean) return [];
      const name = caller.displayName === null ? caller.integration : `${caller.displayName} (${caller.integration})`;
      const hour = new Date(hourStart).toISOString().slice(11, 16);
      return [
        {
          subject: `integration:${caller.integration}`,
          summary: `${name} had ${caller.inHour} requests refused by a plan in the hour from ${hour} UTC, against ${hourlyMean.toFixed(1)} an hour over the ${REFUSAL_BASELINE_HOURS} hours before`,
          details: { integration: caller.integration, displayName: caller.displayName, hourStart: iso(hourStart), blocked: caller.inHour, baselineHourlyMean: hourlyMean, minBlocked, factor },
        },
      ];
    });
}

/**
 * Fires when a pause starts and resolves when it ends, one alert per pause. A pause that began and
 * ended between two runs was never seen in force: it is found once, in words that say it is over, so
 * it is still told (and resolves on the next run).
 */
function checkPlanPaused(context: AlertContext): Finding[] {
  const since = context.previousRunAt;
  return context.pauses
    .filter((pause) => isPauseActive(pause, context.now) || (since !== null && pause.startedAt > since && pauseEndsAt(pause) > since && pause.startedAt <= context.now))
    .map((pause) => {
      const endsAt = pauseEndsAt(pause);
      const over = !isPauseActive(pause, context.now);
      const plan = `Plan "${pause.planName}"`;
      const summary = over
        ? `${plan} was paused from ${iso(pause.startedAt)} to ${iso(endsAt)} by ${pause.pausedBy}: ${pause.reason}`
        : `${plan} is paused until ${iso(endsAt)} by ${pause.pausedBy}: ${pause.reason}. It refuses nothing meanwhile; what it would refuse is counted as would-block.`;
      return {
        subject: `pause:${pause.id}`,
        summary,
        details: { planId: pause.planId, planName: pause.planName, reason: pause.reason, pausedBy: pause.pausedBy, startedAt: iso(pause.startedAt), endsAt: iso(pause.endsAt), resumedAt: iso(pause.resumedAt), resumedBy: pause.resumedBy },
      };
    });
}

export const ALERT_RULES: readonly AlertRule[] = [
  { id: 'curve-flattened', severity: 'warning', consecutive: 2, description: "A plan's share curve has stopped falling while still above target.", check: checkCurveFlattened },
  { id: 'projection-misses-retire-date', severity: 'critical', consecutive: 1, description: "A plan's projection reaches its target after the retire date, or never.", check: checkProjectionMisses },
  { id: 'new-legacy-integration', severity: 'info', consecutive: 1, description: `An identifiable caller was first served legacy work in the last ${NEW_CALLER_DAYS} days.`, check: checkNewLegacyIntegration },
  { id: 'retire-date-approaching', severity: 'warning', consecutive: 1, description: "A plan's retire date is near (each configured threshold) while its share is above target.", check: checkRetireDateApproaching },
  { id: 'metering-loss', severity: 'critical', consecutive: 1, description: 'Counts were dropped, flushes are failing, or nothing has been flushed for a while.', check: checkMeteringLoss },
  { id: 'fleet-drift', severity: 'warning', consecutive: 1, description: 'The nodes of the fleet serve different sets of protocol versions, or a sidecar still runs an older retirement policy a minute after it changed.', check: checkFleetDrift },
  { id: 'fleet-node-unavailable', severity: 'critical', consecutive: 1, description: 'A fleet node was not ready at its latest check.', check: checkFleetNodeUnavailable },
  { id: 'exemption-expiring', severity: 'warning', consecutive: 1, description: `An exemption from a plan that is not observe-only lapses within ${EXEMPTION_NOTICE_DAYS} days.`, check: checkExemptionExpiring },
  { id: 'gate-holding-near-backstop', severity: 'warning', consecutive: 1, description: `A plan's usage gate still holds the cut within ${BACKSTOP_NOTICE_DAYS} days of its backstop.`, check: checkGateHoldingNearBackstop },
  { id: 'refusal-spike', severity: 'critical', consecutive: 1, description: 'An identifiable caller had far more requests refused by plans in the last complete hour than its hourly mean of the day before.', check: checkRefusalSpike },
  { id: 'plan-paused', severity: 'warning', consecutive: 1, description: "A plan's refusals are paused: fires when the pause starts, resolves when it ends or is resumed.", check: checkPlanPaused },
];
