import { describe, expect, test } from 'vitest';
import { computeGateState, type GateInputs } from '../../server/analysis/compute-gate-state.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { dayStart } from '../../server/analysis/plan-clock.js';

const retireAt = dayStart('2027-03-01');
const backstopAt = dayStart('2027-06-01');
const base: GateInputs = { retireAt, backstopAt, maxShare: null, quietDays: 30, exemptions: [], lastUse: new Map(), share: null };

describe('computeGateState', () => {
  test('without a gate the cut comes at the retire date', () => {
    const gate = computeGateState({ ...base, backstopAt: null, lastUse: new Map([['tok_a', retireAt]]) }, retireAt - 1);
    expect(gate).toMatchObject({ kind: 'no-gate', cutInForce: false, cutFrom: retireAt });
    expect(computeGateState({ ...base, backstopAt: null }, retireAt).cutInForce).toBe(true);
  });

  test('an identifiable caller active in the quiet days holds the cut past the retire date, until the backstop', () => {
    const now = retireAt + 10 * DAY_MS;
    const lastUse = new Map([['tok_a', now - 29 * DAY_MS], ['tok_b', now - 31 * DAY_MS]]);
    const holding = computeGateState({ ...base, lastUse }, now);
    expect(holding.kind).toBe('holding');
    expect(holding.cutInForce).toBe(false);
    expect(holding.cutFrom).toBe(backstopAt);
    expect(holding.holdingCallers.map((c) => c.integration)).toEqual(['tok_a']);
    expect(holding.words).toContain('1 identifiable caller');
    const atBackstop = computeGateState({ ...base, lastUse: new Map([['tok_a', backstopAt]]) }, backstopAt);
    expect(atBackstop).toMatchObject({ kind: 'backstop-reached', cutInForce: true, cutFrom: backstopAt });
  });

  test('a day row counts until the end of its day', () => {
    const now = retireAt + 40 * DAY_MS + DAY_MS / 2; // the quiet window starts at noon on day 10
    expect(computeGateState({ ...base, lastUse: new Map([['tok_a', retireAt + 10 * DAY_MS]]) }, now).kind).toBe('holding');
    expect(computeGateState({ ...base, lastUse: new Map([['tok_a', retireAt + 9 * DAY_MS]]) }, now).kind).toBe('open');
  });

  test('an exempt caller holds nothing while its exemption lasts, and holds again once it lapses', () => {
    const now = retireAt + 5 * DAY_MS;
    const lastUse = new Map([['tok_a', now - DAY_MS]]);
    expect(computeGateState({ ...base, lastUse, exemptions: [{ integration: 'tok_a', until: '2027-03-06' }] }, now).kind).toBe('open');
    expect(computeGateState({ ...base, lastUse, exemptions: [{ integration: 'tok_a', until: '2027-03-05' }] }, now).kind).toBe('holding');
  });

  test('a share above maxShare holds the cut even with no identifiable caller', () => {
    const now = retireAt + DAY_MS;
    expect(computeGateState({ ...base, maxShare: 0.01, share: 0.02 }, now)).toMatchObject({ kind: 'holding', shareAboveMax: true });
    expect(computeGateState({ ...base, maxShare: 0.01, share: 0.005 }, now)).toMatchObject({ kind: 'open', cutInForce: true, cutFrom: retireAt });
  });

  test('before the retire date it says what would hold, and nothing is cut', () => {
    const gate = computeGateState({ ...base, lastUse: new Map([['tok_a', retireAt - 2 * DAY_MS]]) }, retireAt - DAY_MS);
    expect(gate).toMatchObject({ kind: 'before-retire', cutInForce: false, cutFrom: backstopAt });
    expect(gate.holdingCallers).toHaveLength(1);
    expect(computeGateState(base, retireAt - DAY_MS)).toMatchObject({ kind: 'before-retire', cutFrom: retireAt });
  });
});
