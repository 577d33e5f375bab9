import { describe, expect, test } from 'vitest';
import { listWireTraces } from '../support/wire-traces.js';
import { replayTrace } from '../support/replay-trace.js';

const traces = listWireTraces();

describe('classification of captured SDK traffic', () => {
  test('the corpus is there and labelled', () => {
    expect(traces.length).toBeGreaterThanOrEqual(47);
    expect(traces.reduce((n, t) => n + t.labels.length, 0)).toBeGreaterThanOrEqual(335);
  });

  for (const trace of traces) {
    test(`${trace.name}: every labelled message is classified as labelled`, () => {
      const replayed = replayTrace(trace);
      const actual = trace.labels.map((label) => {
        const matches = replayed.filter((r) => r.ref === label.ref);
        const match = matches.find((r) => r.message.id === label.id && r.message.method === label.method) ?? matches[label.index];
        return {
          ref: label.ref,
          kind: match?.message.kind,
          method: match?.message.method,
          era: match?.message.era,
          transport: match?.message.transport,
          version: match?.message.version,
          // `no-response` is the counted form of "no answer observed".
          outcome: match === undefined || match.outcome === 'no-response' ? null : match.outcome,
        };
      });
      const expected = trace.labels.map((label) => ({
        ref: label.ref,
        kind: label.kind === 'request' || label.kind === 'notification' || label.kind === 'response' || label.kind === 'stream-open' || label.kind === 'session-delete' ? label.kind : 'other',
        method: label.method,
        era: label.era,
        transport: label.transport,
        version: label.version,
        outcome: label.outcome,
      }));
      expect(actual).toEqual(expected);
      // Exactly one count per labelled message: nothing double-counted.
      expect(replayed.length).toBe(trace.labels.length);
    });
  }
});
