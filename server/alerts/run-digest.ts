/**
 * Sends the weekly digest to the alert webhooks. A scheduled digest is claimed in the store under
 * the schedule's instant before it is sent, so a restart or a second node sharing the store never
 * sends it again; one asked for through the API is its own. Every digest is kept with what it said
 * and how each webhook took it.
 */
import type { TrendThresholds } from '../analysis/compute-trend.js';
import type { Logger } from '../lib/create-logger.js';
import type { DigestDelivery, DigestRecord } from '../store/records/digest-record.js';
import type { Store } from '../store/store.js';
import { loadDigest } from '../views/load-digest.js';
import { postWebhook, type DeliveryPolicy, type Webhook } from './deliver-alert.js';
import { digestToJson, formatDigestPayload } from './format-digest-payload.js';

export interface DigestRunDeps {
  store: Store;
  now: () => number;
  /** This node's name, recorded with each digest it sends. */
  node: string;
  webhooks: readonly Webhook[];
  policy: Omit<DeliveryPolicy, 'signal'>;
  thresholds: TrendThresholds;
  top: number;
  /** The dashboard's address and its print view, as readers reach them. */
  links: () => { dashboard: string; print: string };
  /** Writes pending counts, so the digest sees every request completed before it. */
  beforeRead?: () => Promise<void>;
  logger: Logger;
}

export type DigestRequest = { kind: 'scheduled'; scheduledFor: number } | { kind: 'on-demand'; requestedBy: string };

/** What became of a request: sent by this node, or already taken (by another node, or before a restart). */
export type DigestRunResult = { sent: true; digest: DigestRecord } | { sent: false; key: string };

/** The key that makes a digest once only: a schedule's instant is the same on every node that runs it. */
export function digestKey(request: DigestRequest, node: string, now: number): string {
  return request.kind === 'scheduled' ? `scheduled:${new Date(request.scheduledFor).toISOString()}` : `on-demand:${node}:${new Date(now).toISOString()}`;
}

async function deliverAll(deps: DigestRunDeps, body: ReturnType<typeof digestToJson>, signal: AbortSignal): Promise<DigestDelivery[]> {
  return Promise.all(
    deps.webhooks.map(async (webhook): Promise<DigestDelivery> => {
      const outcome = await postWebhook(webhook, formatDigestPayload(body, webhook.format), { ...deps.policy, signal });
      if (outcome.status === 'failed') deps.logger.warn({ webhook: webhook.name, attempts: outcome.attempts, error: outcome.lastError }, 'digest delivery failed');
      return { webhook: webhook.name, format: webhook.format, ...outcome };
    }),
  );
}

/** Composes, claims, delivers and records one digest. Throws only when the store cannot be read or written. */
export async function runDigest(deps: DigestRunDeps, request: DigestRequest, signal: AbortSignal): Promise<DigestRunResult> {
  await deps.beforeRead?.();
  const now = deps.now();
  const key = digestKey(request, deps.node, now);
  const digest = await loadDigest(deps.store, { now, thresholds: deps.thresholds, top: deps.top, links: deps.links() });
  const body = digestToJson(digest);
  const claimed = await deps.store.claimDigest(
    {
      key,
      kind: request.kind,
      node: deps.node,
      requestedBy: request.kind === 'scheduled' ? 'schedule' : request.requestedBy,
      periodFrom: digest.period.from,
      periodTo: digest.period.to,
      summary: digest.summary.join('\n'),
      content: body,
    },
    now,
  );
  if (claimed === undefined) return { sent: false, key };
  const deliveries = await deliverAll(deps, body, signal);
  const status = deliveries.length === 0 ? 'no-channels' : deliveries.every((d) => d.status === 'delivered') ? 'delivered' : 'failed';
  const finished = await deps.store.finishDigest(claimed.id, { status, deliveries }, deps.now());
  return { sent: true, digest: finished ?? claimed };
}

export interface DigestSender {
  send(request: DigestRequest): Promise<DigestRunResult>;
  /** Abandons pending delivery attempts (recorded as failed) and waits for sends in progress. */
  close(): Promise<void>;
}

export function createDigestSender(deps: DigestRunDeps): DigestSender {
  const stopping = new AbortController();
  const running = new Set<Promise<unknown>>();
  return {
    send(request) {
      if (stopping.signal.aborted) return Promise.reject(new Error('the digest sender is closed'));
      const run = runDigest(deps, request, stopping.signal);
      running.add(run);
      const clear = () => running.delete(run);
      run.then(clear, clear);
      return run;
    },
    async close() {
      stopping.abort(new Error('the service is stopping'));
      await Promise.allSettled([...running]);
    },
  };
}
