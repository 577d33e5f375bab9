import { describe, expect, test } from 'vitest';
import { decideNextStep, FIRST_PHASE } from '../../server/prober/judge/decide-next-step.js';
import { DEFAULT_POLICY, type PeerPolicy } from '../../server/prober/targets/peer-config.js';
import { ambiguousOutcome, stopOutcome, type ProbeOutcome } from '../../server/prober/judge/probe-outcome.js';

const LEGACY = ['2025-11-25', '2025-06-18'];
const strict: PeerPolicy = { allowLegacy: false, allowHttpSse: false, legacyOnEvidence: false };
const allow: PeerPolicy = { ...strict, allowLegacy: true };

const MOD: ProbeOutcome = { class: 'MOD', code: 'discover-result', detail: '', version: '2026-07-28', supported: ['2026-07-28'], serverInfo: null, hasTools: true };
const CORRECTIVE: ProbeOutcome = { class: 'MOD-ERR', code: 'unsupported-version', detail: '', retryWith: '2026-01-01', supported: ['2026-01-01'] };
const NO_MUTUAL: ProbeOutcome = { class: 'MOD-ERR', code: 'unsupported-version', detail: '', retryWith: null, supported: ['2025-11-25'] };
const EVIDENCE: ProbeOutcome = { class: 'AMB*', code: 'legacy-prevalidation-400', detail: '', offer: ['2025-11-25'], supported: null };
const METHOD_NOT_FOUND = ambiguousOutcome('method-not-found', '');
const SILENCE = ambiguousOutcome('stdio-timeout', '', { deadProcess: true, transient: true });

describe('decideNextStep', () => {
  test('the shipped defaults: legacyOnEvidence on, allowLegacy and allowHttpSse off', () => {
    expect(DEFAULT_POLICY).toEqual({ allowLegacy: false, allowHttpSse: false, legacyOnEvidence: true });
  });

  test('MOD adopts modern whatever the policy', () => {
    for (const policy of [strict, allow]) expect(decideNextStep(MOD, policy, FIRST_PHASE, LEGACY)).toEqual({ kind: 'adopt-modern', version: '2026-07-28' });
  });

  test('-32022 with a mutual version re-probes once, and a second one stops: never initialize, even allowlisted', () => {
    expect(decideNextStep(CORRECTIVE, allow, FIRST_PHASE, LEGACY)).toEqual({ kind: 'reprobe', version: '2026-01-01' });
    expect(decideNextStep(CORRECTIVE, allow, { corrected: true, legacyClosed: true }, LEGACY)).toEqual({ kind: 'stop', era: 'modern', state: 'incompatible', enableWith: null });
    expect(decideNextStep(NO_MUTUAL, { ...allow, legacyOnEvidence: true }, FIRST_PHASE, LEGACY)).toEqual({ kind: 'stop', era: 'modern', state: 'incompatible', enableWith: null });
  });

  test('STOP never initializes, even allowlisted', () => {
    for (const outcome of [stopOutcome('auth-required', '', 'auth-required'), stopOutcome('server-error', '', 'unavailable'), stopOutcome('http-timeout', '', 'unavailable')]) {
      expect(decideNextStep(outcome, { allowLegacy: true, allowHttpSse: true, legacyOnEvidence: true }, FIRST_PHASE, LEGACY)).toMatchObject({ kind: 'stop', era: null, enableWith: null });
    }
  });

  test('AMB* initializes with legacyOnEvidence or allowLegacy, offering advertised ∩ configured; otherwise fails closed naming legacyOnEvidence', () => {
    expect(decideNextStep(EVIDENCE, { ...strict, legacyOnEvidence: true }, FIRST_PHASE, LEGACY)).toEqual({ kind: 'initialize', offer: ['2025-11-25'], respawn: false });
    expect(decideNextStep(EVIDENCE, allow, FIRST_PHASE, LEGACY)).toEqual({ kind: 'initialize', offer: ['2025-11-25'], respawn: false });
    expect(decideNextStep(EVIDENCE, strict, FIRST_PHASE, LEGACY)).toEqual({ kind: 'stop', era: null, state: 'incompatible', enableWith: 'legacyOnEvidence' });
  });

  test('AMB initializes only with allowLegacy; legacyOnEvidence does not cover it', () => {
    expect(decideNextStep(METHOD_NOT_FOUND, { ...strict, legacyOnEvidence: true }, FIRST_PHASE, LEGACY)).toEqual({ kind: 'stop', era: null, state: 'incompatible', enableWith: 'allowLegacy' });
    expect(decideNextStep(METHOD_NOT_FOUND, allow, FIRST_PHASE, LEGACY)).toEqual({ kind: 'initialize', offer: LEGACY, respawn: false });
  });

  test('stdio silence is unavailable (it may be a slow start), and allowlisted it respawns before the initialize', () => {
    expect(decideNextStep(SILENCE, DEFAULT_POLICY, FIRST_PHASE, LEGACY)).toEqual({ kind: 'stop', era: null, state: 'unavailable', enableWith: 'allowLegacy' });
    expect(decideNextStep(SILENCE, allow, FIRST_PHASE, LEGACY)).toEqual({ kind: 'initialize', offer: LEGACY, respawn: true });
  });

  test('after modern evidence in the same attempt, nothing leads to initialize', () => {
    const closed = { corrected: true, legacyClosed: true };
    for (const outcome of [EVIDENCE, METHOD_NOT_FOUND, SILENCE]) {
      expect(decideNextStep(outcome, { allowLegacy: true, allowHttpSse: true, legacyOnEvidence: true }, closed, LEGACY)).toMatchObject({ kind: 'stop', era: 'modern' });
    }
  });
});
