/**
 * Turns the previous alert rows and this evaluation's findings into the next rows and the
 * transitions to announce. Pure.
 * Invariants: one row per fingerprint; a fingerprint transitions to `firing` only when its hits
 * reach the rule's `consecutive` count from a non-firing state, and to `resolved` only from
 * `firing`; so an alert that stays found is announced once.
 */
import type { AlertDraft } from '../store/records/alert-record.js';
import type { AlertRule, Finding } from './alert-rules.js';

export type RulePolicy = Pick<AlertRule, 'id' | 'severity' | 'consecutive'>;

export interface RuleFinding extends Finding {
  rule: RulePolicy;
}

export interface AlertTransition {
  kind: 'firing' | 'resolved';
  alert: AlertDraft;
}

export interface AlertEvaluation {
  /** Rows to save (insert or update by fingerprint). */
  changed: AlertDraft[];
  /** Fingerprints of pending alerts that were never fired and are no longer found. */
  dropped: string[];
  transitions: AlertTransition[];
}

export function fingerprintOf(rule: string, subject: string): string {
  return `${rule}:${subject}`;
}

/** Every rule's findings on one context, tagged with the rule. */
export function collectFindings<C>(rules: readonly (RulePolicy & { check(context: C): Finding[] })[], context: C): RuleFinding[] {
  return rules.flatMap((rule) => rule.check(context).map((finding) => ({ ...finding, rule })));
}

function found(previous: AlertDraft | undefined, finding: RuleFinding, now: number): { next: AlertDraft; fires: boolean } {
  const { rule, subject, summary, details } = finding;
  // A resolved alert found again starts a new episode, counted from one.
  const hits = previous === undefined || previous.state === 'resolved' ? 1 : previous.consecutiveHits + 1;
  const base: AlertDraft = {
    fingerprint: fingerprintOf(rule.id, subject),
    rule: rule.id,
    subject,
    severity: rule.severity,
    summary,
    details,
    consecutiveHits: hits,
    state: 'pending',
    firstFiredAt: previous?.firstFiredAt ?? null,
    lastFiredAt: previous?.lastFiredAt ?? null,
    resolvedAt: previous?.resolvedAt ?? null,
    lastEvaluatedAt: now,
  };
  if (previous?.state === 'firing') return { next: { ...base, state: 'firing' }, fires: false };
  if (hits < rule.consecutive) return { next: base, fires: false };
  return { next: { ...base, state: 'firing', firstFiredAt: base.firstFiredAt ?? now, lastFiredAt: now, resolvedAt: null }, fires: true };
}

/** Applies one evaluation at `now`: found fingerprints count up and may fire; firing ones not found resolve. */
export function evaluateAlerts(previous: readonly AlertDraft[], findings: readonly RuleFinding[], now: number): AlertEvaluation {
  const before = new Map(previous.map((row) => [row.fingerprint, row]));
  const seen = new Set<string>();
  const result: AlertEvaluation = { changed: [], dropped: [], transitions: [] };

  for (const finding of findings) {
    const fingerprint = fingerprintOf(finding.rule.id, finding.subject);
    if (seen.has(fingerprint)) continue;
    seen.add(fingerprint);
    const { next, fires } = found(before.get(fingerprint), finding, now);
    result.changed.push(next);
    if (fires) result.transitions.push({ kind: 'firing', alert: next });
  }

  for (const row of previous) {
    if (seen.has(row.fingerprint) || row.state === 'resolved') continue;
    if (row.state === 'firing') {
      const next: AlertDraft = { ...row, state: 'resolved', consecutiveHits: 0, resolvedAt: now, lastEvaluatedAt: now };
      result.changed.push(next);
      result.transitions.push({ kind: 'resolved', alert: next });
    } else if (row.firstFiredAt === null) {
      result.dropped.push(row.fingerprint);
    } else {
      // Pending again after an earlier episode: back to resolved, keeping that episode's times.
      result.changed.push({ ...row, state: 'resolved', consecutiveHits: 0, lastEvaluatedAt: now });
    }
  }
  return result;
}
