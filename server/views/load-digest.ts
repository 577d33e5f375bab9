import type { DigestCallerInput, WeekEraUse } from '../analysis/classify-digest-callers.js';
import { composeDigest, type DigestPlanInput, type Span } from '../analysis/compose-digest.js';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import { summarizeDigest, type SummarizedDigest } from '../analysis/summarize-digest.js';
import { DAY_MS, WEEK_MS } from '../analysis/compute-week-start.js';
import { summarizeScope } from '../analysis/plan-scope.js';
import { bucketStart } from '../lib/time-bucket.js';
import { DEFAULT_SHARE_BASIS } from '../protocol/work-request.js';
import type { Store } from '../store/store.js';
import { loadCallersByEra, type EraUse } from './load-callers-by-era.js';
import { UNIDENTIFIED_KEYS } from './unidentified-keys.js';
import { loadPlanView } from './load-plan-views.js';
import { loadShareView } from './load-share-view.js';

export interface DigestQuery {
  now: number;
  thresholds: TrendThresholds;
  /** How many of the largest remaining identifiable callers to name. */
  top: number;
  links: { dashboard: string; print: string };
}

const LEGACY_ERA = { kind: 'era', value: 'legacy' } as const;

/** The share's target when no plan on the legacy era names one: the dashboard's default. */
const DEFAULT_TARGET = 0.005;

/** The seven whole UTC days ending with today's (today counted up to now), and the seven before. */
export function digestPeriods(now: number): { period: Span; previous: Span } {
  const to = bucketStart(now, 'day') + DAY_MS;
  return { period: { from: to - WEEK_MS, to }, previous: { from: to - 2 * WEEK_MS, to: to - WEEK_MS } };
}

function weekUse(use: EraUse | null): WeekEraUse | null {
  return use === null ? null : { requests: use.requests, versions: use.versions, lastSeen: use.lastSeen };
}

/**
 * The weekly digest as of `now`: what the webhooks are sent and the print view shows. The share is
 * the legacy era's on the basis and target of the first live plan on that era (by retire date), else
 * on work requests against the dashboard's default target.
 */
export async function loadDigest(store: Store, query: DigestQuery): Promise<SummarizedDigest> {
  const { now, thresholds } = query;
  const { period, previous } = digestPeriods(now);
  const plans = await store.listPlans();
  const eraPlan = plans.find((plan) => plan.scopeKind === 'era');
  const share = await loadShareView(store, {
    scope: LEGACY_ERA,
    basis: eraPlan?.basis ?? DEFAULT_SHARE_BASIS,
    bucket: 'day',
    from: previous.from,
    to: period.to,
    target: eraPlan?.targetShare ?? DEFAULT_TARGET,
    now,
    thresholds,
  });
  const sum = (span: Span) =>
    share.series.filter((point) => point.start >= span.from && point.start < span.to).reduce((week, point) => ({ inScope: week.inScope + point.inScope, served: week.served + point.served }), { inScope: 0, served: 0 });

  const planViews = await Promise.all(plans.map((plan) => loadPlanView(store, plan, now, thresholds, { from: previous.from })));
  const planInputs = planViews.map(({ plan, scope, status, share: planShare, enforcement }): DigestPlanInput => {
    return {
      id: plan.id,
      name: plan.name,
      scopeLabel: summarizeScope(scope),
      action: plan.action,
      phase: enforcement.phase,
      status: status.status,
      statusReason: status.reason,
      currentShare: planShare.currentShare,
      targetShare: plan.targetShare,
      retireDate: plan.retireDate,
      timeline: enforcement.timeline,
      pause: enforcement.pause === null ? null : { reason: enforcement.pause.reason, endsAt: enforcement.pause.endsAt },
    };
  });

  const [thisWeek, lastWeek, records] = await Promise.all([loadCallersByEra(store, period), loadCallersByEra(store, previous), store.listIntegrations()]);
  const byKey = new Map(records.map((record) => [record.key, record]));
  // People are kept per UTC day, and the weeks are whole UTC days: the same days are read.
  const [callerPeople, peopleThisWeek, peopleLastWeek] = await Promise.all([store.listCallerPeople(period, LEGACY_ERA), store.countPeople(period, LEGACY_ERA), store.countPeople(previous, LEGACY_ERA)]);
  const legacyPeople = new Map(callerPeople.map((row) => [row.integration, row.legacy]));
  const keys = new Set([...thisWeek.keys(), ...lastWeek.keys()]);
  const callers = [...keys].map((key): DigestCallerInput => {
    const record = byKey.get(key);
    const current = thisWeek.eras(key);
    const before = lastWeek.eras(key);
    return {
      integration: key,
      identifiable: !UNIDENTIFIED_KEYS.has(key),
      displayName: record?.displayName ?? null,
      owner: record?.owner ?? null,
      contact: record?.contact ?? null,
      thisWeek: { legacy: weekUse(current.legacy), modern: weekUse(current.modern) },
      lastWeek: { legacy: weekUse(before.legacy), modern: weekUse(before.modern) },
      everLegacy: (record?.lastLegacySeen ?? null) !== null,
      legacyPeople: legacyPeople.get(key) ?? null,
    };
  });

  const digest = composeDigest({
    now,
    period,
    previous,
    share: {
      basis: share.basis,
      target: share.target,
      thisWeek: sum(period),
      lastWeek: sum(previous),
      trend: { kind: share.trend.kind, slopePerWeek: share.trend.slopePerWeek, significantDecrease: share.trend.significantDecrease, projectedDate: share.trend.projectedDate, reason: share.trend.reason },
    },
    plans: planInputs,
    callers,
    legacyPeople: { thisWeek: peopleThisWeek.legacy, lastWeek: peopleLastWeek.legacy },
    top: query.top,
    links: query.links,
  });
  return { ...digest, summary: summarizeDigest(digest) };
}
