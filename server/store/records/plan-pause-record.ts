/**
 * A plan's refusals stopped for a while: between `startedAt` and its end (`resumedAt` when resumed
 * early, else `endsAt`) every request the plan would refuse is let through and counted as would-block.
 */
export interface PlanPauseRecord {
  id: number;
  planId: number;
  reason: string;
  startedAt: number;
  /** The end it was given; enforcement resumes by itself then. */
  endsAt: number;
  /** Set when it was ended early (resumed, or replaced by a new pause). */
  resumedAt: number | null;
  pausedBy: string;
  resumedBy: string | null;
}

/** What pausing takes; it starts at the call's `now`. */
export interface PauseInput {
  planIds: readonly number[];
  reason: string;
  /** When enforcement resumes by itself (epoch ms). */
  endsAt: number;
  /** Who paused: the admin token's name, or the command line's user. */
  by: string;
}

export interface PlanPauseQuery {
  /** Only pauses that had not ended by then (ended early or run out); all of them when absent. */
  endedSince?: number;
  planId?: number;
}
