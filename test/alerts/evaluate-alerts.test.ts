import { describe, expect, test } from 'vitest';
import { evaluateAlerts, fingerprintOf, type RuleFinding, type RulePolicy } from '../../server/alerts/evaluate-alerts.js';
import type { AlertDraft } from '../../server/store/records/alert-record.js';

const FLAT: RulePolicy = { id: 'curve-flattened', severity: 'warning', consecutive: 2 };
const LOSS: RulePolicy = { id: 'metering-loss', severity: 'critical', consecutive: 1 };
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 30, 12, 0);

function finding(rule: RulePolicy, subject: string, summary = `${rule.id} about ${subject}`): RuleFinding {
  return { rule, subject, summary, details: { summary } };
}

interface Step {
  state: AlertDraft['state'] | 'absent';
  hits: number;
  transition: 'firing' | 'resolved' | null;
}

/** Feeds one subject's findings (true = found) through successive evaluations, a minute apart. */
function run(rule: RulePolicy, founds: readonly boolean[]): { steps: Step[]; rows: AlertDraft[] } {
  let rows: AlertDraft[] = [];
  const steps: Step[] = [];
  founds.forEach((isFound, i) => {
    const result = evaluateAlerts(rows, isFound ? [finding(rule, 'plan:1', `step ${i}`)] : [], T0 + i * MINUTE);
    const byFingerprint = new Map(rows.map((r) => [r.fingerprint, r]));
    for (const row of result.changed) byFingerprint.set(row.fingerprint, row);
    for (const gone of result.dropped) byFingerprint.delete(gone);
    rows = [...byFingerprint.values()];
    const row = rows[0];
    steps.push({ state: row?.state ?? 'absent', hits: row?.consecutiveHits ?? 0, transition: result.transitions[0]?.kind ?? null });
    expect(result.transitions.length).toBeLessThanOrEqual(1);
  });
  return { steps, rows };
}

const p = (hits: number): Step => ({ state: 'pending', hits, transition: null });
const fire = (hits: number): Step => ({ state: 'firing', hits, transition: 'firing' });
const still = (hits: number): Step => ({ state: 'firing', hits, transition: null });
const resolve: Step = { state: 'resolved', hits: 0, transition: 'resolved' };
const quiet: Step = { state: 'resolved', hits: 0, transition: null };
const absent: Step = { state: 'absent', hits: 0, transition: null };

describe('evaluateAlerts', () => {
  test.each<[string, RulePolicy, boolean[], Step[]]>([
    ['a two-evaluation rule is pending first and fires on the second', FLAT, [true, true], [p(1), fire(2)]],
    ['a one-evaluation rule fires at once', LOSS, [true], [fire(1)]],
    ['an alert that stays found fires once (deduplicated)', FLAT, [true, true, true, true], [p(1), fire(2), still(3), still(4)]],
    ['a firing alert no longer found resolves', LOSS, [true, false, false], [fire(1), resolve, quiet]],
    ['a resolved alert found again fires again', LOSS, [true, false, true], [fire(1), resolve, fire(1)]],
    ['a resolved two-evaluation alert needs two evaluations again', FLAT, [true, true, false, true, true], [p(1), fire(2), resolve, p(1), fire(2)]],
    ['a pending alert not found again is dropped, and counting restarts', FLAT, [true, false, true, false], [p(1), absent, p(1), absent]],
    ['a pending alert after an earlier episode goes back to resolved', FLAT, [true, true, false, true, false], [p(1), fire(2), resolve, p(1), quiet]],
    ['nothing found, nothing stored', LOSS, [false, false], [absent, absent]],
  ])('%s', (_name, rule, founds, expected) => {
    expect(run(rule, founds).steps).toEqual(expected);
  });

  test('fired and resolved times: first stays, last moves with each episode', async () => {
    const { rows } = run(LOSS, [true, false, true]);
    expect(rows[0]).toMatchObject({ firstFiredAt: T0, lastFiredAt: T0 + 2 * MINUTE, resolvedAt: null, lastEvaluatedAt: T0 + 2 * MINUTE });
    const resolved = run(LOSS, [true, true, false]).rows[0];
    expect(resolved).toMatchObject({ state: 'resolved', firstFiredAt: T0, lastFiredAt: T0, resolvedAt: T0 + 2 * MINUTE });
  });

  test('summary, details and severity follow the latest finding, also while firing', async () => {
    const { rows } = run(LOSS, [true, true, true]);
    expect(rows[0]).toMatchObject({ summary: 'step 2', details: { summary: 'step 2' }, severity: 'critical', rule: 'metering-loss', subject: 'plan:1' });
  });

  test('the fingerprint is rule and subject; subjects are independent; duplicates in one run count once', async () => {
    const findings = [finding(LOSS, 'a'), finding(LOSS, 'b'), finding(LOSS, 'a'), finding(FLAT, 'a')];
    const result = evaluateAlerts([], findings, T0);
    expect(result.changed.map((r) => [r.fingerprint, r.state])).toEqual([
      ['metering-loss:a', 'firing'],
      ['metering-loss:b', 'firing'],
      ['curve-flattened:a', 'pending'],
    ]);
    expect(result.transitions.map((t) => t.alert.fingerprint)).toEqual(['metering-loss:a', 'metering-loss:b']);
    expect(fingerprintOf('curve-flattened', 'plan:7')).toBe('curve-flattened:plan:7');
  });

  test('resolved alerts that are not found are left alone', async () => {
    const resolved = run(LOSS, [true, false]).rows;
    const result = evaluateAlerts(resolved, [], T0 + 10 * MINUTE);
    expect(result).toEqual({ changed: [], dropped: [], transitions: [] });
  });
});
