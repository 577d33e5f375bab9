import type { ClassifiedMessage, ClientInfoHint } from '../protocol/classified-message.js';
import type { RefusalCause } from '../protocol/policy-refusal.js';
import type { Outcome } from '../protocol/vocabulary.js';

/** Which plan refused a message, and why: what a `blocked` outcome does not say by itself. */
export interface RefusalMark {
  plan: number;
  cause: RefusalCause;
}

/** One settled message, ready to be counted. `attrs` is what the caller attached to the exchange. */
export interface Observation<A> {
  message: ClassifiedMessage;
  outcome: Outcome;
  claimMismatch: boolean;
  clientInfo: ClientInfoHint | undefined;
  attrs: A;
  /**
   * A request's duration as the meter saw it, in seconds: from its classification to its outcome.
   * Absent where it was not timed: notifications, refusals (the server never saw them).
   */
  seconds?: number;
  /** For a `blocked` message, the plan that refused it and the cause. */
  refusal?: RefusalMark;
}

export type RecordObservation<A> = (observation: Observation<A>) => void;
