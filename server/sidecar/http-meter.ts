import { LRUCache } from 'lru-cache';
import type { ClassifyLookups, HttpSseChannel } from '../protocol/classified-message.js';
import { classifyHttpRequest, type HttpRequestFacts } from '../protocol/classify-http-request.js';
import type { JsonRpcId } from '../protocol/read-json-rpc.js';
import type { Outcome } from '../protocol/vocabulary.js';
import type { ExchangeState, PendingAnswer, SettleInFlight } from './exchange-state.js';
import { HttpExchange } from './http-exchange.js';
import type { RecordObservation } from './observation.js';

export interface HttpMeterOptions<A> {
  record: RecordObservation<A>;
  /** Legacy sessions remembered (their negotiated version). */
  maxSessions?: number;
  /** HTTP+SSE channels remembered (message endpoint → negotiated version). */
  maxChannels?: number;
  /** Requests whose answer is expected on another HTTP exchange (HTTP+SSE, resumed streams). */
  maxPendingAnswers?: number;
  /** How long such a request waits for its answer before it is counted as `no-response` (default 10 minutes). */
  pendingAnswerTtlMs?: number;
  /** Paths treated as HTTP+SSE message endpoints even before an `endpoint` event was seen. */
  httpSseMessagePaths?: readonly string[];
  /** Largest JSON answer, or single SSE event, read to find an outcome. */
  maxAnswerBytes?: number;
}

const MAX_LEARNED_PATHS = 64;

/**
 * The stateful half of HTTP metering: what must be remembered across exchanges to classify and
 * settle each message (sessions, HTTP+SSE channels, answers that arrive elsewhere). Every table is
 * bounded, so hostile traffic costs bounded memory. No I/O: the proxy feeds it.
 */
export class HttpMeter<A> implements ExchangeState<A> {
  readonly record: RecordObservation<A>;
  readonly maxAnswerBytes: number;
  private readonly sessions: LRUCache<string, { version: string | undefined }>;
  private readonly channels: LRUCache<string, { version: string | undefined }>;
  private readonly messagePaths: Set<string>;
  private readonly serverRequests: LRUCache<string, string>;
  private readonly pending: LRUCache<string, PendingAnswer<A>>;
  private readonly inFlight: LRUCache<string, { answersArriveOn: string; id: JsonRpcId; settle: SettleInFlight }>;

  constructor(options: HttpMeterOptions<A>) {
    this.record = options.record;
    this.maxAnswerBytes = options.maxAnswerBytes ?? 1024 * 1024;
    this.sessions = new LRUCache({ max: options.maxSessions ?? 10_000 });
    this.channels = new LRUCache({ max: options.maxChannels ?? 10_000 });
    this.messagePaths = new Set(options.httpSseMessagePaths ?? ['/messages']);
    this.serverRequests = new LRUCache({ max: options.maxPendingAnswers ?? 50_000 });
    // Forgetting an in-flight request only loses the chance to settle it early on a cancel.
    this.inFlight = new LRUCache({ max: options.maxPendingAnswers ?? 50_000 });
    this.pending = new LRUCache<string, PendingAnswer<A>>({
      max: options.maxPendingAnswers ?? 50_000,
      ttl: options.pendingAnswerTtlMs ?? 10 * 60_000,
      ttlAutopurge: true,
      // Evicted, expired or displaced by a request reusing its id: no answer will reach it now.
      dispose: (entry, _key, reason) => {
        if (reason === 'evict' || reason === 'expire' || reason === 'set') this.recordPending(entry, 'no-response');
      },
    });
  }

  readonly lookups: ClassifyLookups = {
    sessionVersion: (id) => this.sessions.get(id)?.version,
    httpSseChannel: (path) => this.channelOf(path),
    serverRequestMethod: (on, id) => this.serverRequests.get(answerKey(on, id)),
  };

  /** Classifies a request and returns the exchange that follows its answer. */
  begin(facts: HttpRequestFacts, attrs: A): HttpExchange<A> {
    return new HttpExchange(this, classifyHttpRequest(facts, this.lookups), facts, attrs);
  }

  /** True when the path is an HTTP+SSE message endpoint, configured or learned from an `endpoint` event. */
  isMessageEndpoint(path: string): boolean {
    return this.channelOf(path) !== undefined;
  }

  /** Counts every request still waiting for an answer as `no-response`: used at shutdown. */
  settleAllPending(): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) this.recordPending(entry, 'no-response');
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  // ---- used by HttpExchange ----

  rememberSession(id: string, version: string | undefined): void {
    this.sessions.set(id, { version });
  }

  abandonSession(id: string): void {
    const on = `session:${id}`;
    for (const entry of [...this.inFlight.values()]) {
      if (entry.answersArriveOn === on) entry.settle(entry.id, 'cancelled');
    }
    this.settlePendingOn(on, () => 'cancelled');
  }

  endSession(id: string): void {
    this.sessions.delete(id);
    this.settlePendingOn(`session:${id}`, (entry) => (entry.clientLeft ? 'cancelled' : 'no-response'));
  }

  openChannel(path: string): void {
    this.channels.set(path, { version: undefined });
    const pathname = path.split('?')[0] ?? path;
    if (this.messagePaths.size < MAX_LEARNED_PATHS) this.messagePaths.add(pathname);
  }

  setChannelVersion(path: string, version: string): void {
    if (this.channels.has(path)) this.channels.set(path, { version });
  }

  /** Ends a channel: its unanswered requests will never be answered. */
  closeChannel(path: string): void {
    this.channels.delete(path);
    this.settlePendingOn(`sse:${path}`, (entry) => (entry.clientLeft ? 'cancelled' : 'no-response'));
  }

  rememberServerRequest(answersArriveOn: string, id: JsonRpcId, method: string): void {
    this.serverRequests.set(answerKey(answersArriveOn, id), method);
  }

  park(entry: PendingAnswer<A>): void {
    if (entry.message.id === null) return this.recordPending(entry, 'no-response');
    this.pending.set(answerKey(entry.answersArriveOn, entry.message.id), entry);
  }

  claim(answersArriveOn: string, id: JsonRpcId): PendingAnswer<A> | undefined {
    const key = answerKey(answersArriveOn, id);
    const entry = this.pending.get(key);
    if (entry !== undefined) this.pending.delete(key);
    return entry;
  }

  trackInFlight(answersArriveOn: string, id: JsonRpcId, settle: SettleInFlight): void {
    this.inFlight.set(answerKey(answersArriveOn, id), { answersArriveOn, id, settle });
  }

  untrackInFlight(answersArriveOn: string, id: JsonRpcId, settle: SettleInFlight): void {
    const key = answerKey(answersArriveOn, id);
    // A later request reusing the id may have taken the slot: only the owner clears it.
    if (this.inFlight.peek(key)?.settle === settle) this.inFlight.delete(key);
  }

  cancel(answersArriveOn: string, id: JsonRpcId): void {
    const waiting = this.claim(answersArriveOn, id);
    if (waiting !== undefined) return this.recordPending(waiting, 'cancelled');
    this.inFlight.peek(answerKey(answersArriveOn, id))?.settle(id, 'cancelled');
  }

  private channelOf(path: string): HttpSseChannel | undefined {
    const channel = this.channels.get(path);
    if (channel !== undefined) return { key: path, version: channel.version };
    const query = path.indexOf('?');
    const pathname = query < 0 ? path : path.slice(0, query);
    return this.messagePaths.has(pathname) ? { key: undefined, version: undefined } : undefined;
  }

  private settlePendingOn(answersArriveOn: string, outcomeOf: (entry: PendingAnswer<A>) => Outcome): void {
    for (const [key, entry] of [...this.pending.entries()]) {
      if (entry.answersArriveOn !== answersArriveOn) continue;
      this.pending.delete(key);
      this.recordPending(entry, outcomeOf(entry));
    }
  }

  private recordPending(entry: PendingAnswer<A>, outcome: Outcome): void {
    this.record({ message: entry.message, outcome, claimMismatch: entry.claimMismatch, clientInfo: entry.clientInfo, attrs: entry.attrs });
  }
}

function answerKey(answersArriveOn: string, id: JsonRpcId): string {
  return `${answersArriveOn}|${typeof id}:${id}`;
}
