import type { TrendThresholds } from '../analysis/compute-trend.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../lib/create-logger.js';
import type { AlertDeliveryRecord, AlertRecord } from '../store/records/alert-record.js';
import type { AlertSettingKey } from '../store/records/alert-setting-key.js';
import type { Store } from '../store/store.js';
import type { MeteringSnapshot } from './alert-context.js';
import { ALERT_RULES } from './alert-rules.js';
import { closeQuietCallers } from './close-quiet-callers.js';
import { deliverAlert } from './deliver-alert.js';
import { collectFindings, evaluateAlerts } from './evaluate-alerts.js';
import { loadAlertContext } from './load-alert-context.js';
import { runNotices, type SentNotice } from './run-notices.js';

export interface AlertRunnerDeps {
  store: Store;
  now: () => number;
  thresholds: TrendThresholds;
  /** Whether a schedule runs it is the caller's business. */
  settings: Omit<Config['alerts'], 'scheduled' | 'digest'>;
  /**
   * The flusher's health, read before `beforeRead` so a flush made for the run cannot hide a stall.
   * Absent where nothing is metered: metering-loss is then not judged here.
   */
  metering?: () => MeteringSnapshot;
  /** Writes pending counts, so the rules see every request completed before the run. */
  beforeRead?: () => Promise<void>;
  logger: Logger;
  attemptTimeoutMs?: number;
  /** This node's name, recorded with each notice to callers it sends; without it no notices go out here. */
  node?: string;
}

export interface DeliveredTransition {
  kind: 'firing' | 'resolved';
  alert: AlertRecord;
  deliveries: AlertDeliveryRecord[];
}

export interface AlertRun {
  evaluatedAt: number;
  transitions: DeliveredTransition[];
  /** Notices to callers this run sent (see run-notices.ts). */
  notices: SentNotice[];
}

const DROPPED_KEY: AlertSettingKey = 'alerts.meteringDroppedEvents';
/** When the rules last ran: a pause that began and ended since then is still told. */
const LAST_RUN_KEY: AlertSettingKey = 'alerts.lastRunAt';

/** Closes quiet callers and reopens returning ones before the rules judge; a failure here never stops the rules. */
async function closeCallers(deps: AlertRunnerDeps, now: number): Promise<void> {
  try {
    for (const closure of await closeQuietCallers(deps.store, now)) deps.logger.info({ integration: closure.key, change: closure.kind }, 'integration status changed by its usage');
  } catch (error) {
    deps.logger.error({ err: error }, 'could not close or reopen quiet integrations');
  }
}

/** Evaluates every rule at `now` and saves the result in one transaction; answers the transitions to announce. */
async function evaluateAndSave(deps: AlertRunnerDeps, watchingSince: number): Promise<{ evaluatedAt: number; transitions: { kind: 'firing' | 'resolved'; alert: AlertRecord }[] }> {
  const { store } = deps;
  const flush = deps.metering?.();
  await deps.beforeRead?.();
  const now = deps.now();
  await closeCallers(deps, now);
  const previousDropped = await store.getAlertSetting(DROPPED_KEY);
  const lastRun = await store.getAlertSetting(LAST_RUN_KEY);
  const context = await loadAlertContext(store, {
    now,
    previousRunAt: lastRun === undefined ? null : Number(lastRun),
    thresholds: deps.thresholds,
    settings: deps.settings,
    metering: flush === undefined ? null : { ...flush, previousDroppedEvents: previousDropped === undefined ? null : Number(previousDropped), watchingSince },
  });
  const previous = (await store.listAlerts()).map(({ id: _id, deliverySummary: _summary, ...draft }) => draft);
  const evaluation = evaluateAlerts(previous, collectFindings(ALERT_RULES, context), now);
  const rows = await store.saveAlertEvaluation({
    changed: evaluation.changed,
    dropped: evaluation.dropped,
    settings: [{ key: LAST_RUN_KEY, value: String(now) }, ...(flush === undefined ? [] : [{ key: DROPPED_KEY, value: String(flush.droppedEvents) }])],
  });
  const saved = new Map(rows.map((row) => [row.fingerprint, row]));
  return { evaluatedAt: now, transitions: evaluation.transitions.map((t) => ({ kind: t.kind, alert: saved.get(t.alert.fingerprint)! })) };
}

/**
 * Tells every webhook about every transition and records each outcome. A webhook gets the
 * transitions one at a time, in order, so a receiver never sees a resolve before its fire;
 * webhooks do not wait for each other. Never throws.
 */
async function deliverAll(deps: AlertRunnerDeps, transitions: readonly { kind: 'firing' | 'resolved'; alert: AlertRecord }[], signal: AbortSignal): Promise<DeliveredTransition[]> {
  const delivered = transitions.map((t) => ({ ...t, deliveries: [] as AlertDeliveryRecord[] }));
  const { maxAttempts, initialBackoffMs } = deps.settings;
  const policy = { maxAttempts, initialBackoffMs, signal, ...(deps.attemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: deps.attemptTimeoutMs }) };
  await Promise.all(
    deps.settings.webhooks.map(async (webhook) => {
      for (const entry of delivered) {
        const outcome = await deliverAlert(entry.kind, entry.alert, webhook, policy);
        const log = { webhook: webhook.name, alert: entry.alert.fingerprint, transition: entry.kind, attempts: outcome.attempts, error: outcome.lastError };
        if (outcome.status === 'failed') deps.logger.warn(log, 'alert delivery failed');
        try {
          entry.deliveries.push(await deps.store.insertAlertDelivery({ alertId: entry.alert.id, transition: entry.kind, webhook: webhook.name, format: webhook.format, ...outcome, at: deps.now() }));
        } catch (error) {
          deps.logger.error({ ...log, err: error }, 'could not record an alert delivery');
        }
      }
    }),
  );
  return delivered;
}

/** One run: evaluate, save, then deliver (awaitable, so callers can wait for the webhooks). */
export async function runAlerts(deps: AlertRunnerDeps, options: { watchingSince: number; signal: AbortSignal }): Promise<AlertRun> {
  const { evaluatedAt, transitions } = await evaluateAndSave(deps, options.watchingSince);
  for (const t of transitions) deps.logger.info({ alert: t.alert.fingerprint, severity: t.alert.severity, summary: t.alert.summary }, `alert ${t.kind}`);
  const delivered = await deliverAll(deps, transitions, options.signal);
  return { evaluatedAt, transitions: delivered, notices: await sendNotices(deps, options.signal) };
}

/** The notices due now, after the alerts; a failure here is logged and never stops the alerts. */
async function sendNotices(deps: AlertRunnerDeps, signal: AbortSignal): Promise<SentNotice[]> {
  if (deps.node === undefined) return [];
  const { maxAttempts, initialBackoffMs } = deps.settings;
  try {
    const sent = await runNotices({
      store: deps.store,
      now: deps.now,
      node: deps.node,
      webhooks: deps.settings.webhooks,
      policy: { maxAttempts, initialBackoffMs, signal, ...(deps.attemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: deps.attemptTimeoutMs }) },
      logger: deps.logger,
    });
    for (const { notice } of sent) deps.logger.info({ integration: notice.integration, plan: notice.planId, stage: notice.stage, daysBefore: notice.daysBefore, status: notice.status }, 'notice to a caller');
    return sent;
  } catch (error) {
    deps.logger.error({ err: error }, 'notices to callers could not be sent; the next run tries again');
    return [];
  }
}

export interface AlertRunner {
  /** Runs now, after any run in progress (deliveries included), so notifications stay in order. */
  run(): Promise<AlertRun>;
  /** True while a run is in progress or queued. */
  readonly busy: boolean;
  /** Refuses further runs, abandons pending delivery attempts (recorded as failed) and waits for the run to end. */
  close(): Promise<void>;
}

export function createAlertRunner(deps: AlertRunnerDeps): AlertRunner {
  const watchingSince = deps.now();
  const stopping = new AbortController();
  let current: Promise<AlertRun> | undefined;
  return {
    run() {
      const next = (current ?? Promise.resolve()).catch(() => undefined).then(() => {
        if (stopping.signal.aborted) throw new Error('the alert runner is closed');
        return runAlerts(deps, { watchingSince, signal: stopping.signal });
      });
      current = next;
      const clear = () => {
        if (current === next) current = undefined;
      };
      next.then(clear, clear);
      return next;
    },
    get busy() {
      return current !== undefined;
    },
    async close() {
      stopping.abort(new Error('the service is stopping'));
      await current?.catch(() => undefined);
    },
  };
}
