/**
 * When a pause of a plan's refusals is in force. Pure: a pause is a span from its start to its end,
 * which is the moment it was resumed when that came first.
 */
export interface PauseSpan {
  startedAt: number;
  endsAt: number;
  /** When it was ended early (always before `endsAt`); null while it runs to `endsAt`. */
  resumedAt: number | null;
}

/** The instant the plan enforces again. */
export function pauseEndsAt(pause: PauseSpan): number {
  return pause.resumedAt ?? pause.endsAt;
}

/** In force at `now`: started, and neither resumed nor run out. */
export function isPauseActive(pause: PauseSpan, now: number): boolean {
  return pause.startedAt <= now && now < pauseEndsAt(pause);
}
