/**
 * Tells the callers of `deny` plans, through the alert webhooks, ahead of each stage at the days the
 * plan names: only identifiable callers with served work in the plan's scope within its quiet days,
 * and not exempt when the stage begins. Each notice is claimed in the store before it is sent, so a
 * restart or a second node sharing the store never sends it again.
 */
import { loadCallerRecords } from '../views/load-caller-records.js';
import { DAY_MS } from '../analysis/compute-week-start.js';
import { dueNotices, noticeStages } from '../analysis/due-notices.js';
import { exemptionEndsAt, planClock } from '../analysis/plan-clock.js';
import { summarizeScope } from '../analysis/plan-scope.js';
import type { Logger } from '../lib/create-logger.js';
import { bucketStart } from '../lib/time-bucket.js';
import type { CallerNoticeRecord, NoticeClaim } from '../store/records/caller-notice-record.js';
import type { PlanRecord } from '../store/records/plan-record.js';
import type { Store } from '../store/store.js';
import { UNIDENTIFIED_KEYS } from '../views/unidentified-keys.js';
import { scopeOf } from '../analysis/plan-scope.js';
import { postWebhook, type DeliveryPolicy, type Webhook } from './deliver-alert.js';
import { formatNoticePayload, type NoticeContent } from './format-notice-payload.js';

export interface NoticeRunDeps {
  store: Store;
  now: () => number;
  /** This node's name: it is recorded with each notice it claims. */
  node: string;
  webhooks: readonly Webhook[];
  policy: DeliveryPolicy;
  logger: Logger;
}

/** A notice this run sent, with how it went. */
export interface SentNotice {
  notice: CallerNoticeRecord;
  content: NoticeContent;
}

interface Pending {
  claim: NoticeClaim;
  content: NoticeContent;
}

/** The plan's due notices for its active, identifiable, non-exempt callers, as claims with what each would say. */
async function plannedNotices(store: Store, plan: PlanRecord, registry: ReadonlyMap<string, { displayName: string | null; owner: string | null; contact: string | null }>, node: string, now: number): Promise<Pending[]> {
  const due = dueNotices(noticeStages(planClock(plan), plan.brownouts), plan.noticeDays, now);
  if (due.length === 0) return [];
  const scope = scopeOf(plan);
  const today = bucketStart(now, 'day');
  const callers = (await store.listScopeCallers(scope, { from: today - (plan.quietDays - 1) * DAY_MS, to: today + DAY_MS })).filter((c) => !UNIDENTIFIED_KEYS.has(c.integration));
  const exemptUntil = new Map(plan.exemptions.map((e) => [e.integration, exemptionEndsAt(e.until)]));
  const planInfo = { id: plan.id, name: plan.name, scope: summarizeScope(scope), policyUrl: plan.policyUrl };
  return due.flatMap(({ stage, daysBefore, skipped }) =>
    callers
      .filter((caller) => (exemptUntil.get(caller.integration) ?? 0) <= stage.at)
      .flatMap((caller) => {
        const known = registry.get(caller.integration);
        const content: NoticeContent = {
          plan: planInfo,
          stage: { kind: stage.kind, at: stage.at, endsAt: stage.endsAt, daysBefore },
          caller: { integration: caller.integration, displayName: known?.displayName ?? null, owner: known?.owner ?? null, contact: known?.contact ?? null },
          usage: { days: plan.quietDays, requests: caller.requests, versions: caller.versions, lastSeen: caller.lastSeen },
        };
        const base = { planId: plan.id, integration: caller.integration, stage: stage.kind, stageAt: stage.at, node, requests: caller.requests, versions: [...caller.versions] };
        return [{ claim: { ...base, daysBefore, status: 'sending' as const }, content }, ...skipped.map((days) => ({ claim: { ...base, daysBefore: days, status: 'skipped' as const }, content }))];
      }),
  );
}

/** A notice's identity, as the store's unique index has it. */
function noticeKey(n: Pick<NoticeClaim, 'planId' | 'integration' | 'stage' | 'stageAt' | 'daysBefore'>): string {
  return `${n.planId}|${n.integration}|${n.stage}|${n.stageAt}|${n.daysBefore}`;
}

/** One run: claims what is due, sends what this node claimed, records each outcome. Never throws for one notice. */
export async function runNotices(deps: NoticeRunDeps): Promise<SentNotice[]> {
  const { store, logger } = deps;
  // Without a channel nothing can be told: nothing is claimed, so a webhook configured later still sends what is due then.
  if (deps.webhooks.length === 0) return [];
  const plans = (await store.listPlans()).filter((plan) => plan.action === 'deny' && plan.noticeDays.length > 0);
  if (plans.length === 0) return [];
  const now = deps.now();
  const { records: registry } = await loadCallerRecords(store);
  const pending = (await Promise.all(plans.map((plan) => plannedNotices(store, plan, registry, deps.node, now)))).flat();
  if (pending.length === 0) return [];
  const claimed = await store.claimNotices(pending.map((p) => p.claim), now);
  const contentOf = new Map(pending.map((p) => [noticeKey(p.claim), p.content]));
  const sent: SentNotice[] = [];
  for (const notice of claimed.filter((n) => n.status === 'sending')) {
    const content = contentOf.get(noticeKey(notice))!;
    let attempts = 0;
    let lastError: string | null = null;
    let failed = false;
    for (const webhook of deps.webhooks) {
      const outcome = await postWebhook(webhook, formatNoticePayload(content, webhook.format), deps.policy);
      attempts += outcome.attempts;
      if (outcome.status === 'failed') {
        failed = true;
        lastError = `${webhook.name}: ${outcome.lastError ?? 'failed'}`;
      }
    }
    const finished = { status: failed ? ('failed' as const) : ('delivered' as const), attempts, lastError };
    if (failed) logger.warn({ integration: notice.integration, plan: notice.planId, stage: notice.stage, error: lastError }, 'notice delivery failed');
    try {
      sent.push({ notice: (await store.finishNotice(notice.id, finished, deps.now())) ?? { ...notice, ...finished }, content });
    } catch (error) {
      logger.error({ err: error, notice: notice.id }, 'could not record a notice\'s delivery');
      sent.push({ notice: { ...notice, ...finished }, content });
    }
  }
  return sent;
}
