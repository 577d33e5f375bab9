import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import type { ClassifiedMessage } from '../protocol/classified-message.js';
import type { HttpRequestClassification, HttpRequestFacts } from '../protocol/classify-http-request.js';
import { headerValue } from '../protocol/headers-agree.js';
import { readJsonRpcText, type JsonRpcMessage } from '../protocol/read-json-rpc.js';
import { opensLegacySession, outcomeOfStatus, settleWithAnswer } from '../protocol/settle-message.js';
import { HTTP_SSE_ENDPOINT_EVENT, resolveEndpointPath, settleStreamOpen } from '../protocol/settle-stream-open.js';
import { HEADER } from '../protocol/versions.js';
import type { Outcome } from '../protocol/vocabulary.js';
import { AnswerTextDecoder, answerText } from './answer-text.js';
import { boundedId } from './bounded-key.js';
import type { ExchangeState, PendingAnswer, SettleInFlight } from './exchange-state.js';
import { secondsSince } from './seconds-since.js';

/** The URL the client used: a relative endpoint is resolved against it, and Host names its host. */
function requestUrlOf(facts: HttpRequestFacts): URL {
  try {
    return new URL(facts.path, `http://${headerValue(facts.headers, 'host') ?? 'sidecar.invalid'}`);
  } catch {
    return new URL('http://sidecar.invalid/');
  }
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;
type Answer = Extract<JsonRpcMessage, { kind: 'response' }>;

/**
 * Follows one HTTP exchange from request to the end of its answer and records every message it
 * carried exactly once: when its answer is seen, or when the exchange ends without one.
 */
export class HttpExchange<A> {
  readonly classification: HttpRequestClassification;
  private readonly open: ClassifiedMessage[];
  private status: number | undefined;
  private responseSessionId: string | undefined;
  private eventStream = false;
  private sse: EventSourceParser | undefined;
  private sseText: AnswerTextDecoder | undefined;
  private sawEventId = false;
  private firstEventSeen = false;
  private channelPath: string | undefined;
  private jsonChunks: Buffer[] = [];
  private jsonBytes = 0;
  private answerTooLarge = false;
  private ended = false;
  private readonly parked: ClassifiedMessage[] = [];
  /** When the meter took the request in, on its clock. */
  private readonly since: number;

  constructor(
    private readonly state: ExchangeState<A>,
    classification: HttpRequestClassification,
    private readonly facts: HttpRequestFacts,
    readonly attrs: A,
  ) {
    this.classification = classification;
    this.since = state.clock();
    this.open = [...classification.messages];
    const on = classification.answersArriveOn;
    if (on !== undefined) {
      for (const message of this.open.filter((m) => m.kind === 'request')) {
        if (message.id === null) continue;
        // On HTTP+SSE the answer arrives on the GET stream, possibly before this POST's 202 does.
        if (on.startsWith('sse:')) {
          this.drop(message);
          this.parked.push(message);
          state.park(this.pending(message, on, false));
        } else {
          state.trackInFlight(on, message.id, this.settleInFlight);
        }
      }
      for (const id of classification.cancels) state.cancel(on, id);
    }
    // Ending a session gives up on its open requests; the server may close their streams first.
    if (facts.method === 'DELETE' && classification.sessionId !== undefined) state.abandonSession(classification.sessionId);
  }

  /** The upstream answered with a status and headers. */
  responseHead(status: number, headers: Headers): void {
    this.status = status;
    // Only a 202 sends the answer to the stream; anything else answers (or refuses) here.
    if (status !== 202) this.unpark();
    this.eventStream = (headerValue(headers, HEADER.contentType) ?? '').startsWith('text/event-stream');
    this.responseSessionId = headerValue(headers, HEADER.sessionId);
    const sessionId = this.classification.sessionId;
    if (sessionId !== undefined && (status === 404 || (this.facts.method === 'DELETE' && status < 300))) {
      this.state.endSession(sessionId);
    }
    if (this.eventStream && status < 300) {
      this.sse = createParser({
        onEvent: (event) => this.onEvent(event),
        onError: (error) => {
          // The parser stops for good past its buffer cap; outcomes then come from the status.
          if (error.type === 'max-buffer-size-exceeded') this.answerTooLarge = true;
        },
        maxBufferSize: this.state.maxAnswerBytes,
      });
    }
    // A GET waits for its first event when only that can tell HTTP+SSE apart: it carries no session,
    // one the sidecar never saw initialized (an HTTP+SSE server ignores the header), or it is at a
    // path where HTTP+SSE streams open.
    const { sessionId: session, knownSession, httpSseStreamPath } = this.classification;
    const waitForFirstEvent = this.sse !== undefined && (session === undefined || !knownSession || httpSseStreamPath);
    for (const message of this.open.filter((m) => m.kind === 'stream-open' || m.kind === 'session-delete' || m.kind === 'other')) {
      if (message.kind === 'stream-open' && waitForFirstEvent) continue;
      this.settle(message, outcomeOfStatus(message, status) ?? 'served');
    }
  }

  /**
   * A chunk of the answer body as the client receives it (its content coding undone). An event
   * stream is decoded and read as it comes; a JSON answer is held, as bytes, until it is whole.
   */
  responseBytes(chunk: Buffer): void {
    if (this.answerTooLarge) return;
    if (this.sse !== undefined) return this.sse.feed((this.sseText ??= new AnswerTextDecoder()).write(chunk));
    if (this.open.length === 0) return;
    this.jsonBytes += chunk.length;
    if (this.jsonBytes > this.state.maxAnswerBytes) {
      this.answerTooLarge = true;
      this.jsonChunks = [];
      return;
    }
    this.jsonChunks.push(chunk);
  }

  /** A chunk of an answer made as text (the bridge's). */
  responseChunk(text: string): void {
    if (this.sse !== undefined && !this.answerTooLarge) return this.sse.feed(text);
    this.responseBytes(Buffer.from(text, 'utf8'));
  }

  /** The upstream finished the answer. */
  responseEnd(): void {
    if (this.ended) return;
    this.ended = true;
    const rest = this.sseText?.end();
    if (rest !== undefined && rest !== '' && !this.answerTooLarge) this.sse?.feed(rest);
    if (this.sse === undefined && this.jsonChunks.length > 0) {
      for (const message of readJsonRpcText(answerText(this.jsonChunks))) this.onRpc(message, true);
    }
    if (this.channelPath !== undefined) this.state.closeChannel(this.channelPath);
    for (const message of [...this.open]) this.finishUnanswered(message);
  }

  /** The client went away before the answer was complete. */
  clientClosed(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.channelPath !== undefined) this.state.closeChannel(this.channelPath);
    const on = this.classification.answersArriveOn;
    for (const message of [...this.open]) {
      // A 2025-11-25 client may drop a primed stream on purpose and resume it with Last-Event-ID.
      if (message.kind === 'request' && on !== undefined && this.sawEventId && message.id !== null) {
        this.drop(message);
        this.state.park(this.pending(message, on, true));
        continue;
      }
      this.settle(message, this.status === undefined || message.kind === 'request' ? 'cancelled' : outcomeOfStatus(message, this.status) ?? 'cancelled');
    }
  }

  /** The upstream could not be reached, or failed before answering. */
  upstreamFailed(): void {
    if (this.ended) return;
    this.ended = true;
    this.unpark();
    const outcome: Outcome = this.status === undefined ? 'upstream-unreachable' : 'no-response';
    for (const message of [...this.open]) this.settle(message, outcome);
  }

  get isSettled(): boolean {
    return this.open.length === 0;
  }

  private finishUnanswered(message: ClassifiedMessage): void {
    const status = this.status ?? 502;
    const byStatus = outcomeOfStatus(message, status);
    if (byStatus !== undefined) return this.settle(message, byStatus);
    if (this.answerTooLarge) return this.settle(message, 'served');
    // The answer will come on another exchange: the HTTP+SSE stream, or a resumed legacy stream.
    const on = this.classification.answersArriveOn;
    const elsewhere = on !== undefined && (message.transport === 'http+sse' || (this.eventStream && this.sawEventId));
    if (elsewhere && message.id !== null) {
      this.drop(message);
      return this.state.park(this.pending(message, on, false));
    }
    this.settle(message, 'no-response');
  }

  private onEvent(event: EventSourceMessage): void {
    if (event.id !== undefined && event.id !== '') this.sawEventId = true;
    if (!this.firstEventSeen) {
      this.firstEventSeen = true;
      if (this.onFirstEvent(event)) return;
    }
    if (event.data === '') return;
    for (const message of readJsonRpcText(event.data)) this.onRpc(message, false);
  }

  /** Settles a waiting GET; answers true when the event was the HTTP+SSE `endpoint` event. */
  private onFirstEvent(event: EventSourceMessage): boolean {
    const streamOpen = this.open.find((m) => m.kind === 'stream-open');
    if (streamOpen === undefined) return false;
    const settled = settleStreamOpen(streamOpen, event.event);
    this.replace(streamOpen, settled);
    this.settle(settled, 'served');
    if (event.event !== HTTP_SSE_ENDPOINT_EVENT) return false;
    this.state.learnStreamPath(this.facts.path);
    const path = resolveEndpointPath(event.data, requestUrlOf(this.facts));
    if (path !== undefined) {
      this.channelPath = path;
      this.state.openChannel(path);
    }
    return true;
  }

  /** Where answers arriving on this exchange's stream belong. */
  private get streamAnswersOn(): string | undefined {
    return this.channelPath !== undefined ? `sse:${this.channelPath}` : this.classification.answersArriveOn;
  }

  private onRpc(rpc: JsonRpcMessage, fromJsonBody: boolean): void {
    if (rpc.kind === 'request') {
      const on = this.streamAnswersOn;
      if (on !== undefined) this.state.rememberServerRequest(on, rpc.id, rpc.method);
      return;
    }
    if (rpc.kind !== 'response') return;
    const own = this.matchOwn(rpc, fromJsonBody);
    if (own !== undefined) return this.settleAnswer(own, rpc, this.status);
    const on = this.streamAnswersOn;
    if (on === undefined || rpc.id === null) return;
    const pending = this.state.claim(on, rpc.id);
    if (pending === undefined) return;
    const settled = settleWithAnswer(pending.message, rpc, undefined);
    if (this.channelPath !== undefined && opensLegacySession(settled.message) && settled.message.version !== null) {
      this.state.setChannelVersion(this.channelPath, settled.message.version, pending.clientInfo);
    }
    this.state.record({ ...pending, message: settled.message, outcome: settled.outcome, seconds: timed(settled.message, pending.since, this.state.clock) });
  }

  /** The open request this answer belongs to; an id-less error belongs to a lone request. */
  private matchOwn(answer: Answer, fromJsonBody: boolean): ClassifiedMessage | undefined {
    const requests = this.open.filter((m) => m.kind === 'request' || (fromJsonBody && m.kind !== 'stream-open'));
    if (answer.id !== null) return requests.find((m) => m.kind === 'request' && m.id === answer.id);
    return answer.error !== undefined && requests.length === 1 ? requests[0] : undefined;
  }

  private settleAnswer(message: ClassifiedMessage, answer: Answer, status: number | undefined): void {
    const settled = settleWithAnswer(message, answer, status);
    if (opensLegacySession(settled.message) && settled.outcome === 'served' && this.responseSessionId !== undefined) {
      this.state.rememberSession(this.responseSessionId, settled.message.version ?? undefined, this.classification.clientInfo);
    }
    this.replace(message, settled.message);
    this.settle(settled.message, settled.outcome);
  }

  private pending(message: ClassifiedMessage, answersArriveOn: string, clientLeft: boolean): PendingAnswer<A> {
    const { claimMismatch, clientInfo } = this.classification;
    return { message, claimMismatch, clientInfo, attrs: this.attrs, answersArriveOn, clientLeft, since: this.since };
  }

  /** A cancel or a session's end, seen on another exchange, settles an open request of this one. */
  private readonly settleInFlight: SettleInFlight = (id, outcome) => {
    const message = this.open.find((m) => m.kind === 'request' && m.id !== null && boundedId(m.id) === id);
    if (message !== undefined) this.settle(message, outcome);
  };

  /** Takes back parked requests the upstream refused outright, so the refusal settles them. */
  private unpark(): void {
    const on = this.classification.answersArriveOn;
    for (const message of this.parked.splice(0)) {
      if (on !== undefined && message.id !== null && this.state.claim(on, message.id) !== undefined) this.open.push(message);
    }
  }

  private replace(from: ClassifiedMessage, to: ClassifiedMessage): void {
    const index = this.open.indexOf(from);
    if (index >= 0) this.open[index] = to;
  }

  private drop(message: ClassifiedMessage): void {
    const index = this.open.indexOf(message);
    if (index < 0) return;
    this.open.splice(index, 1);
    const on = this.classification.answersArriveOn;
    if (message.kind === 'request' && message.id !== null && on !== undefined) this.state.untrackInFlight(on, message.id, this.settleInFlight);
  }

  private settle(message: ClassifiedMessage, outcome: Outcome): void {
    this.drop(message);
    const { claimMismatch, clientInfo } = this.classification;
    this.state.record({ message, outcome, claimMismatch, clientInfo, attrs: this.attrs, seconds: timed(message, this.since, this.state.clock) });
  }
}

/** A request's duration; undefined for every other kind of message, which has no operation to time. */
function timed(message: ClassifiedMessage, since: number, clock: () => number): number | undefined {
  return message.kind === 'request' ? secondsSince(since, clock) : undefined;
}
