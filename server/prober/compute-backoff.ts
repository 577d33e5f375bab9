/**
 * Waits between probe attempts of an unavailable peer. Pure: `now` comes in.
 */

export interface BackoffSettings {
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** A Retry-After longer than this ends the retries instead of stalling the probe. */
  maxRetryAfterMs: number;
  /**
   * Whether a Retry-After is waited out before the next attempt. Off, the server's answer ends
   * the attempts at once: whoever asked is told when to come back and decides for themselves.
   */
  waitOnRetryAfter: boolean;
}

/**
 * Reads Retry-After (delta-seconds or an HTTP-date) as milliseconds from `now`; null when absent
 * or unreadable. A date in the past means "now": 0.
 */
export function parseRetryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): initial × 2^(attempt-1), capped;
 * a Retry-After is honoured by never waiting less than it asks. Null means "do not retry":
 * the server asked us to come back later and we are not waiting here (`waitOnRetryAfter` off),
 * or it asked for longer than we are willing to wait.
 */
export function computeBackoffMs(attempt: number, retryAfterMs: number | null, settings: BackoffSettings): number | null {
  const exponential = Math.min(settings.maxBackoffMs, settings.initialBackoffMs * 2 ** Math.max(0, attempt - 1));
  if (retryAfterMs === null) return exponential;
  if (!settings.waitOnRetryAfter || retryAfterMs > settings.maxRetryAfterMs) return null;
  return Math.max(exponential, retryAfterMs);
}
