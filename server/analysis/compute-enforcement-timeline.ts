/**
 * A plan's enforcement as a timeline, and what applies at `now` in one word. Pure.
 * Invariant: an entry's state follows from its instants and `now` alone (the plan's action does not
 * change when things happen, only whether they refuse); `phase` is where the action comes in. Each
 * entry that refuses names the span its refusals are counted over, clipped to `now`; spans overlap
 * (a brownout inside the block-new stretch), and a refusal is counted in each one it falls in.
 */
import type { GateState } from './compute-gate-state.js';
import type { PlanClock } from './plan-clock.js';
import { isPauseActive, pauseEndsAt, type PauseSpan } from './plan-pause.js';

export const ENFORCEMENT_ENTRY_KINDS = ['announce', 'brownout', 'block-new', 'retire', 'cut', 'backstop', 'pause'] as const;
export type EnforcementEntryKind = (typeof ENFORCEMENT_ENTRY_KINDS)[number];

export const ENFORCEMENT_STATES = ['past', 'in-force', 'upcoming'] as const;
export type EnforcementState = (typeof ENFORCEMENT_STATES)[number];

export const ENFORCEMENT_PHASES = ['observing', 'announced', 'brownout', 'blocking-new', 'cut', 'gate-holding', 'paused'] as const;
export type EnforcementPhase = (typeof ENFORCEMENT_PHASES)[number];

export interface TimelineEntry {
  kind: EnforcementEntryKind;
  /** When the entry starts. */
  at: number;
  /** When it stops; null when it lasts (announce, cut) or is one instant (retire, backstop). */
  endsAt: number | null;
  state: EnforcementState;
  /** The span its refusals are counted over, up to `now`; null when it refuses nothing or has not started. */
  countSpan: { from: number; to: number } | null;
  /** A brownout's note, or a pause's reason. */
  note: string | null;
}

export interface EnforcementTimelineInputs {
  action: 'observe' | 'dryrun' | 'warn' | 'deny';
  clock: PlanClock;
  brownouts: readonly { startsAt: number; endsAt: number; note: string | null }[];
  gate: Pick<GateState, 'kind' | 'cutInForce' | 'cutFrom'>;
  /** The plan's pauses, each ending when resumed or run out. */
  pauses?: readonly (PauseSpan & { reason: string })[];
}

export interface EnforcementTimeline {
  entries: TimelineEntry[];
  phase: EnforcementPhase;
}

function stateOf(at: number, endsAt: number | null, now: number): EnforcementState {
  if (now < at) return 'upcoming';
  return endsAt !== null && now >= endsAt ? 'past' : 'in-force';
}

function countSpan(from: number, to: number | null, now: number): { from: number; to: number } | null {
  const end = Math.min(to ?? now, now);
  return from < end ? { from, to: end } : null;
}

/** What applies at `now`: a pause of refusals, refusals (real under deny, rehearsed under dryrun), then the announcement. */
function phaseOf(input: EnforcementTimelineInputs, inBrownout: boolean, now: number): EnforcementPhase {
  const { action, clock, gate } = input;
  if (action === 'observe') return 'observing';
  if (action === 'deny' && (input.pauses ?? []).some((pause) => isPauseActive(pause, now))) return 'paused';
  if (action !== 'warn') {
    if (gate.cutInForce) return 'cut';
    if (inBrownout) return 'brownout';
    if (gate.kind === 'holding') return 'gate-holding';
    if (clock.blockNewAt !== null && now >= clock.blockNewAt) return 'blocking-new';
  }
  // A dry run sends no headers: it rehearses refusals only.
  return action !== 'dryrun' && now >= clock.announceAt ? 'announced' : 'observing';
}

export function computeEnforcementTimeline(input: EnforcementTimelineInputs, now: number): EnforcementTimeline {
  const { clock, gate } = input;
  const entries: TimelineEntry[] = [{ kind: 'announce', at: clock.announceAt, endsAt: null, state: stateOf(clock.announceAt, null, now), countSpan: null, note: null }];
  for (const window of input.brownouts) {
    entries.push({ kind: 'brownout', at: window.startsAt, endsAt: window.endsAt, state: stateOf(window.startsAt, window.endsAt, now), countSpan: countSpan(window.startsAt, window.endsAt, now), note: window.note });
  }
  if (clock.blockNewAt !== null) {
    // Block-new stands alone until the cut refuses everyone; while the gate holds, the cut's start is still a forecast.
    const endsAt = gate.cutInForce ? gate.cutFrom : null;
    entries.push({ kind: 'block-new', at: clock.blockNewAt, endsAt, state: stateOf(clock.blockNewAt, endsAt, now), countSpan: countSpan(clock.blockNewAt, endsAt, now), note: null });
  }
  entries.push({ kind: 'retire', at: clock.retireAt, endsAt: null, state: now >= clock.retireAt ? 'past' : 'upcoming', countSpan: null, note: null });
  entries.push({ kind: 'cut', at: gate.cutFrom, endsAt: null, state: gate.cutInForce ? 'in-force' : 'upcoming', countSpan: gate.cutInForce ? countSpan(gate.cutFrom, null, now) : null, note: null });
  for (const pause of input.pauses ?? []) {
    // Under deny a pause's span counts what it let through as would-block; elsewhere it changed nothing.
    const endsAt = pauseEndsAt(pause);
    entries.push({ kind: 'pause', at: pause.startedAt, endsAt, state: stateOf(pause.startedAt, endsAt, now), countSpan: input.action === 'deny' ? countSpan(pause.startedAt, endsAt, now) : null, note: pause.reason });
  }
  if (clock.backstopAt !== null) entries.push({ kind: 'backstop', at: clock.backstopAt, endsAt: null, state: now >= clock.backstopAt ? 'past' : 'upcoming', countSpan: null, note: null });
  entries.sort((a, b) => a.at - b.at || ENFORCEMENT_ENTRY_KINDS.indexOf(a.kind) - ENFORCEMENT_ENTRY_KINDS.indexOf(b.kind));
  const inBrownout = input.brownouts.some((w) => w.startsAt <= now && now < w.endsAt);
  return { entries, phase: phaseOf(input, inBrownout, now) };
}
