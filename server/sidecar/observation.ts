import type { ClassifiedMessage, ClientInfoHint } from '../protocol/classified-message.js';
import type { Outcome } from '../protocol/vocabulary.js';

/** One settled message, ready to be counted. `attrs` is what the caller attached to the exchange. */
export interface Observation<A> {
  message: ClassifiedMessage;
  outcome: Outcome;
  claimMismatch: boolean;
  clientInfo: ClientInfoHint | undefined;
  attrs: A;
}

export type RecordObservation<A> = (observation: Observation<A>) => void;
