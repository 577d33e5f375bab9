/** Formatting only: the API computes every number, the page just writes it down. */
import type { ShareBasis } from './api-types.js';

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const SHORT_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 0.0812 → "8.12%"; tiny shares keep two significant digits. */
export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  const percent = share * 100;
  if (percent !== 0 && Math.abs(percent) < 0.01) return `${percent.toPrecision(2)}%`;
  return `${percent.toFixed(2)}%`;
}

/** A change of share in percentage points, signed: 0.0123 → "+1.23 pp", −0.027 → "−2.70 pp". */
export function formatPoints(change: number | null | undefined): string {
  if (change === null || change === undefined || !Number.isFinite(change)) return '—';
  const text = Math.abs(change * 100).toFixed(2);
  if (Number(text) === 0) return '0.00 pp';
  return `${change < 0 ? '−' : '+'}${text} pp`;
}

/** Axis ticks: "45%", "0.5%", "0.25%": no trailing zeros. */
export function formatTickShare(share: number): string {
  return Number.isFinite(share) ? `${Number((share * 100).toPrecision(3))}%` : '';
}

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : INTEGER.format(n);
}

/** An ISO time or YYYY-MM-DD → "2027-01-06" (UTC). */
export function formatDay(at: string | number | null | undefined): string {
  if (at === null || at === undefined) return '—';
  const date = new Date(typeof at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(at) ? `${at}T00:00:00Z` : at);
  return Number.isNaN(date.getTime()) ? '—' : date.toISOString().slice(0, 10);
}

/** "Jan 6, 2027" for prose. */
export function formatLongDay(at: string | number | null | undefined): string {
  if (at === null || at === undefined) return '—';
  const date = new Date(typeof at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(at) ? `${at}T00:00:00Z` : at);
  return Number.isNaN(date.getTime()) ? '—' : SHORT_DAY.format(date);
}

/** "2026-11-30 14:05 UTC" */
export function formatTime(at: string | null | undefined): string {
  if (at === null || at === undefined) return '—';
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '—' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "just now", "40 s ago", "12 min ago", "3 h ago", "2 days ago": how long before `now` a time was. */
export function formatAgo(at: string | null | undefined, now: number): string {
  if (at === null || at === undefined) return '—';
  const ms = now - new Date(at).getTime();
  if (Number.isNaN(ms)) return '—';
  const s = Math.floor(ms / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const days = Math.floor(s / 86_400);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** "in 37 days", "today", "12 days ago" from the API's daysToRetire. */
export function formatDaysAway(days: number): string {
  if (days === 0) return 'today';
  const n = Math.abs(days);
  const unit = n === 1 ? 'day' : 'days';
  return days > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}

export const STATUS_LABEL: Readonly<Record<string, string>> = {
  met: 'Met',
  'on-track': 'On track',
  'at-risk': 'At risk',
  'off-track': 'Off track',
  unknown: 'Unknown',
};

/** "Legacy era", "Transport http+sse", "Version 2025-06-18". */
export function formatScope(scope: { kind: string; value: string }): string {
  if (scope.kind === 'era') return 'Legacy era';
  return `${scope.kind === 'transport' ? 'Transport' : 'Version'} ${scope.value}`;
}

/** What a share counts, in words: "work requests" or "all requests". */
export function formatBasis(basis: ShareBasis): string {
  return basis === 'all-requests' ? 'all requests' : 'work requests';
}
