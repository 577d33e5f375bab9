import type { ClassifiedMessage, ClientInfoHint } from '../protocol/classified-message.js';
import type { Outcome } from '../protocol/vocabulary.js';

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
}

export type RecordObservation<A> = (observation: Observation<A>) => void;
