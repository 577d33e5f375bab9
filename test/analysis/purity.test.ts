import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computePlanStatus } from '../../server/analysis/compute-plan-status.js';
import { computeShareSeries } from '../../server/analysis/compute-share-series.js';
import { computeTrend } from '../../server/analysis/compute-trend.js';
import { WEEK_MS } from '../../server/analysis/compute-week-start.js';
import { checkLayering, formatViolation, importsOf, type LayerRule, type SourceText } from '../architecture/layering-rules.js';
import { OUTCOMES } from '../../server/protocol/vocabulary.js';
import { START } from './synthetic-series.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function analysisSources(): SourceText[] {
  const dir = join(ROOT, 'server', 'analysis');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => ({ path: `server/analysis/${name}`, source: readFileSync(join(dir, name), 'utf8') }));
}

/** The folder's own statement of purity, beside the `analysis-is-pure` invariant of test/architecture: nothing with I/O at all. */
const ANALYSIS_IS_PURE: LayerRule = {
  id: 'analysis-is-pure',
  from: ['analysis'],
  forbid: ['node:*', 'package:*', 'server/*', 'outside'],
  allow: ['server/analysis', 'server/protocol', 'server/lib', 'package:ml-regression-theil-sen'],
  rationale: 'Analysis is maths over rows and `now`: no runtime, no store, and no library but the pure estimator it names, so every number it answers is reproducible in a unit test.',
};

describe('server/analysis purity', () => {
  const sources = analysisSources();

  test('imports only itself, the protocol vocabulary, served and work-request predicates, the time-bucket helper and the Theil–Sen estimator', () => {
    expect(sources.length).toBeGreaterThan(5);
    expect(checkLayering(sources, [ANALYSIS_IS_PURE]).map(formatViolation)).toEqual([]);
    const outside = sources.flatMap((s) => importsOf(s).map((ref) => ref.specifier)).filter((spec) => !spec.startsWith('./'));
    expect([...new Set(outside)].sort()).toEqual(['../lib/time-bucket.js', '../protocol/served.js', '../protocol/vocabulary.js', '../protocol/work-request.js', 'ml-regression-theil-sen']);
  });

  test('every file opens with a header that says it is pure, and stays within 200 lines', () => {
    for (const { path, source } of sources) {
      expect(source.startsWith('/**'), path).toBe(true);
      expect(source.slice(0, source.indexOf('*/')), path).toMatch(/\bPure\b|\bpure\b/);
      expect(source.split('\n').length, path).toBeLessThanOrEqual(200);
    }
  });
});

describe('analysis never throws for data reasons', () => {
  const anyNumber = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, -0, 1e300));

  test('computeShareSeries, computeTrend and computePlanStatus answer values for arbitrary numbers (property)', () => {
    const point = fc.record({
      start: fc.oneof(fc.integer({ min: 0, max: 20 }).map((w) => START + w * WEEK_MS), anyNumber),
      served: anyNumber,
      inScope: anyNumber,
      share: fc.oneof(fc.constant(null), anyNumber, fc.double({ min: 0, max: 1, noNaN: true })),
      refused: fc.constant(0),
      failed: fc.constant(0),
      probes: fc.constant(0),
      negotiation: fc.constant(0),
      legacyIntegrations: fc.constant(null),
      modernIntegrations: fc.constant(null),
      bridged: fc.constant(0),
      bridgedShare: fc.constant(null),
    });
    const thresholds = fc.record({ windowWeeks: anyNumber, minPoints: anyNumber, alpha: anyNumber, flatSlopePerWeek: anyNumber, atRiskDays: anyNumber });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 20 }), anyNumber, thresholds, anyNumber, anyNumber, (weekly, target, t, now, retire) => {
        const trend = computeTrend(weekly, target, t, now);
        const status = computePlanStatus({ retireDate: retire, announceDate: 0, targetShare: target }, trend, trend.currentShare, now, t);
        expect(typeof status.reason).toBe('string');
      }),
    );
    fc.assert(
      fc.property(anyNumber, anyNumber, anyNumber, fc.constantFrom(...OUTCOMES), (day, count, span, outcome) => {
        const rows = [{ day, era: 'legacy', transport: 'stdio', version: 'v', outcome, requestClass: 'work', count } as const];
        const to = START + (Number.isFinite(span) ? Math.abs(span) % (30 * WEEK_MS) : WEEK_MS);
        expect(Array.isArray(computeShareSeries({ rows, legacyIntegrations: [{ day, count }], scope: { kind: 'era', value: 'legacy' }, basis: 'work-requests', bucket: 'day', from: START, to }))).toBe(true);
      }),
    );
  });
});
