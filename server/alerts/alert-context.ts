/**
 * What the alert rules judge: a plain snapshot built by `loadAlertContext` (I/O) and handed to the
 * pure checks, so every rule can be tested with a hand-built object.
 */
import type { PauseSpan } from '../analysis/plan-pause.js';
import type { GateState } from '../analysis/compute-gate-state.js';
import type { PlanStatus } from '../analysis/compute-plan-status.js';
import type { CallerRefusals } from '../store/records/caller-refusals.js';
import type { NewLegacyCaller } from '../store/records/new-legacy-callers.js';
import type { ExemptionRecord, PlanAction } from '../store/records/plan-record.js';
import type { FleetView } from '../views/load-fleet-view.js';

/** One active plan, reduced to what the rules read from its view. */
export interface AlertPlan {
  id: number;
  name: string;
  /** "Legacy", "http+sse", "Version 2025-06-18". */
  scopeLabel: string;
  retireDate: string;
  /** The retire date as the UTC midnight it starts. */
  retireDay: number;
  targetShare: number;
  status: PlanStatus;
  /** The latest share with traffic (the week may still be in progress); null without traffic. */
  currentShare: number | null;
  trend: { flat: boolean; significantDecrease: boolean; slopePerWeek: number | null; weeks: number; reason: string };
  action: PlanAction;
  exemptions: readonly ExemptionRecord[];
  /** The usage gate as judged at `now` on stored counts; null when the plan has none. */
  gate: { backstopDate: string; backstopAt: number; maxShare: number | null; quietDays: number; state: GateState } | null;
}

/** The flusher's health as the alerts see it (FlushHealth fits this shape). */
export interface MeteringSnapshot {
  lastFlushAt: number | undefined;
  droppedEvents: number;
  consecutiveFailures: number;
  lastError: string | undefined;
}

export interface AlertMetering extends MeteringSnapshot {
  /** Dropped events seen by the previous evaluation; null when there was none. */
  previousDroppedEvents: number | null;
  /** When this process started watching: the stand-in for a flush that has not happened yet. */
  watchingSince: number;
}

/** A pause of a plan's refusals, with the plan's name for the summary. */
export interface AlertPause extends PauseSpan {
  id: number;
  planId: number;
  planName: string;
  reason: string;
  pausedBy: string;
  resumedBy: string | null;
}

export interface AlertContext {
  now: number;
  /** When the rules last ran before this; null the first time. */
  previousRunAt: number | null;
  plans: readonly AlertPlan[];
  /** Callers first served legacy work recently, identifiable or not. */
  newLegacyCallers: readonly NewLegacyCaller[];
  /** The first day the legacy path served any caller work: callers seen since then are the baseline, not news. */
  legacyMeteredSince: number | null;
  /** Null in a process that meters nothing (`mcp-sunset dashboard`): it has no flusher to judge. */
  metering: AlertMetering | null;
  /** The fleet's latest checks, compared (nodes empty when no fleet is configured), and the sidecars' heartbeats. */
  fleet: Pick<FleetView, 'expected' | 'drift' | 'nodes' | 'down' | 'probes' | 'policyVersion' | 'sidecars'>;
  /** Requests refused by plans per caller: in the last complete hour, and in the 24 hours before it. */
  refusals: { hourStart: number; callers: readonly CallerRefusals[] };
  /** Pauses in force, or ended since the previous run (or in the last day, the first time). */
  pauses: readonly AlertPause[];
  /** Operator-given names of callers, by key, for the summaries. */
  displayNames: ReadonlyMap<string, string>;
  settings: { approachingDays: readonly number[]; noFlushMinutes: number; refusalSpikeMinBlocked: number; refusalSpikeFactor: number };
}
