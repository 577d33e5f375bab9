import type { ClassifiedMessage, ClientInfoHint } from '../protocol/classified-message.js';
import type { JsonRpcId } from '../protocol/read-json-rpc.js';
import type { Outcome } from '../protocol/vocabulary.js';
import type { RecordObservation } from './observation.js';

/** A request waiting for an answer that will arrive on another exchange. */
export interface PendingAnswer<A> {
  message: ClassifiedMessage;
  claimMismatch: boolean;
  clientInfo: ClientInfoHint | undefined;
  attrs: A;
  /** Where its answer arrives: a legacy session's streams or an HTTP+SSE channel's stream. */
  answersArriveOn: string;
  /** True when the client dropped the stream the answer was coming on. */
  clientLeft: boolean;
  /** When its exchange began, on the meter's clock: its duration runs from here to its outcome. */
  since: number;
}

/** Settles a request still open on its own exchange, from outside it (a cancel, a DELETE). The id comes as held (see boundedId). */
export type SettleInFlight = (id: JsonRpcId, outcome: Outcome) => void;

/**
 * What one HTTP exchange reads and writes of the state kept across exchanges: just this, so an
 * exchange can be followed (and tested) without the whole meter.
 */
export interface ExchangeState<A> {
  readonly record: RecordObservation<A>;
  /** Monotonic milliseconds, for durations (performance.now unless a test gives its own). */
  readonly clock: () => number;
  /** Largest JSON answer, or single SSE event, read to find an outcome. */
  readonly maxAnswerBytes: number;
  /** A legacy session opened: its negotiated version, and what its client claimed to be (a hint, never a key). */
  rememberSession(id: string, version: string | undefined, clientInfo: ClientInfoHint | undefined): void;
  /** The client is ending the session (DELETE): what it still waits for in it is cancelled. */
  abandonSession(id: string): void;
  /** The session is over (DELETEd, or 404 from the server): it is forgotten with what waits in it. */
  endSession(id: string): void;
  openChannel(path: string): void;
  /** A GET at this path (query allowed) opened an HTTP+SSE stream. */
  learnStreamPath(path: string): void;
  setChannelVersion(path: string, version: string, clientInfo: ClientInfoHint | undefined): void;
  /** The HTTP+SSE channel's stream ended: answers will not come on it any more. */
  closeChannel(path: string): void;
  rememberServerRequest(answersArriveOn: string, id: JsonRpcId, method: string): void;
  park(entry: PendingAnswer<A>): void;
  /** Takes the request waiting for an answer with this id where answers arrive. */
  claim(answersArriveOn: string, id: JsonRpcId): PendingAnswer<A> | undefined;
  /** Notes a request open on an exchange, so a cancel seen elsewhere can settle it. */
  trackInFlight(answersArriveOn: string, id: JsonRpcId, settle: SettleInFlight): void;
  untrackInFlight(answersArriveOn: string, id: JsonRpcId, settle: SettleInFlight): void;
  /** The client cancelled this request: settle it, wherever it is waiting. */
  cancel(answersArriveOn: string, id: JsonRpcId): void;
}
