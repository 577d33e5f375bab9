import pRetry, { AbortError } from 'p-retry';
import type { AlertDraft } from '../store/records/alert-record.js';
import { formatAlertPayload, type WebhookFormat } from './format-alert-payload.js';

export interface Webhook {
  name: string;
  url: string;
  format: WebhookFormat;
}

export interface DeliveryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Wait before the second attempt; each later wait doubles. */
  initialBackoffMs: number;
  attemptTimeoutMs?: number;
  /** Aborting it (at shutdown) ends the delivery as failed, without further attempts. */
  signal?: AbortSignal;
}

export interface DeliveryOutcome {
  status: 'delivered' | 'failed';
  attempts: number;
  /** The last failed attempt's error, also when a later attempt succeeded. */
  lastError: string | null;
}

export const ATTEMPT_TIMEOUT_MS = 10_000;

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error) {
    // undici says "fetch failed" and keeps the useful part (ECONNREFUSED host:port) in the cause.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

function describeResponse(response: Response): string {
  // Only the status: a body is the target's words, and a redirect's target may be anything at all.
  return response.status >= 300 && response.status < 400 ? `HTTP ${response.status}: redirect not followed` : `HTTP ${response.status}`;
}

/**
 * POSTs one transition to one webhook, retrying network errors, timeouts, 5xx and 429 with
 * exponential backoff; any other 4xx means the receiver rejects this body, so it is not retried.
 * A redirect is a failure, never followed or retried: the alert goes to the configured URL or nowhere.
 * Never throws: the outcome says what happened. Errors never name the URL, which for Slack is a secret.
 */
export async function deliverAlert(kind: 'firing' | 'resolved', alert: AlertDraft, webhook: Webhook, policy: DeliveryPolicy): Promise<DeliveryOutcome> {
  return postWebhook(webhook, formatAlertPayload(kind, alert, webhook.format), policy);
}

/** POSTs one JSON body to one webhook, with the retries and refusals described above. Never throws. */
export async function postWebhook(webhook: Webhook, payload: unknown, policy: DeliveryPolicy): Promise<DeliveryOutcome> {
  const timeoutMs = policy.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const body = JSON.stringify(payload);
  let attempts = 0;
  let lastError: string | null = null;

  const attempt = async () => {
    attempts += 1;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = policy.signal === undefined ? timeout : AbortSignal.any([timeout, policy.signal]);
    let response: Response;
    try {
      response = await fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'mcp-sunset' }, body, signal, redirect: 'manual' });
    } catch (error) {
      if (policy.signal?.aborted) throw new AbortError(describeError(policy.signal.reason, timeoutMs));
      throw new Error(describeError(error, timeoutMs));
    }
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) return;
    const message = describeResponse(response);
    if (response.status === 429 || response.status >= 500) throw new Error(message);
    throw new AbortError(message);
  };

  try {
    await pRetry(attempt, {
      retries: Math.max(0, policy.maxAttempts - 1),
      minTimeout: policy.initialBackoffMs,
      factor: 2,
      randomize: false,
      ...(policy.signal === undefined ? {} : { signal: policy.signal }),
      onFailedAttempt: ({ error }) => {
        lastError = error.message;
      },
    });
    return { status: 'delivered', attempts, lastError };
  } catch (error) {
    return { status: 'failed', attempts, lastError: describeError(error, timeoutMs) };
  }
}
