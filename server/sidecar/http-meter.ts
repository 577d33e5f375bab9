import type { ClassifyLookups, ClientInfoHint, HttpSseChannel } from '../protocol/classified-message.js';
import { classifyHttpRequest, type HttpRequestClassification, type HttpRequestFacts } from '../protocol/classify-http-request.js';
import type { JsonRpcId } from '../protocol/read-json-rpc.js';
import type { Outcome } from '../protocol/vocabulary.js';
import { approxBytes } from './approx-bytes.js';
import { boundedId, boundedKey, MAX_KEY_CHARS } from './bounded-key.js';
import { BudgetedTable } from './budgeted-table.js';
import type { ExchangeState, PendingAnswer, SettleInFlight } from './exchange-state.js';
import { HttpExchange } from './http-exchange.js';
import { secondsSince } from './seconds-since.js';
import type { RecordObservation, RefusalMark } from './observation.js';

export interface HttpMeterOptions<A> {
  record: RecordObservation<A>;
  /** Legacy sessions remembered (their negotiated version). */
  maxSessions?: number;
  /** Bytes the session table, and the channel table, may each hold. */
  maxSessionBytes?: number;
  /** HTTP+SSE channels remembered (message endpoint → negotiated version). */
  maxChannels?: number;
  /** Requests whose answer is expected on another HTTP exchange (HTTP+SSE, resumed streams). */
  maxPendingAnswers?: number;
  /** Bytes the table of requests waiting for answers (and each table of requests in flight) may hold. */
  maxPendingAnswerBytes?: number;
  /** How long such a request waits for its answer before it is counted as `no-response` (default 10 minutes). */
  pendingAnswerTtlMs?: number;
  /** Paths treated as HTTP+SSE message endpoints even before an `endpoint` event was seen. */
  httpSseMessagePaths?: readonly string[];
  /** Paths where a GET opens an HTTP+SSE stream, even before an `endpoint` event was seen there. */
  httpSseStreamPaths?: readonly string[];
  /** Largest JSON answer, or single SSE event, read to find an outcome. */
  maxAnswerBytes?: number;
  /** Monotonic milliseconds for request durations; performance.now by default. */
  clock?: () => number;
}

const MAX_LEARNED_PATHS = 64;

/** What is remembered of a legacy session or an HTTP+SSE channel. */
interface SessionMemory {
  version: string | undefined;
  clientInfo?: ClientInfoHint | undefined;
}
const MIB = 1024 * 1024;

export interface MeterMemory {
  /** Bytes held by the meter's tables now, as estimated. */
  heldBytes: number;
  /** The sum of the tables' byte budgets. */
  budgetBytes: number;
  /** Entries pushed out because a table's byte budget was full. */
  evictedForBytes: number;
}

interface InFlight {
  answersArriveOn: string;
  id: JsonRpcId;
  settle: SettleInFlight;
}

/**
 * The stateful half of HTTP metering: what must be remembered across exchanges to classify and
 * settle each message (sessions, HTTP+SSE channels, answers that arrive elsewhere). Every table is
 * bounded, so hostile traffic costs bounded memory. No I/O: the proxy feeds it.
 */
export class HttpMeter<A> implements ExchangeState<A> {
  readonly record: RecordObservation<A>;
  readonly clock: () => number;
  readonly maxAnswerBytes: number;
  // Every key and held string a client can choose is bounded (ids and session keys as digests when
  // long), and every table has a byte budget besides its entry cap.
  // What a session's or channel's client claimed in its initialize is kept beside its version: its
  // later requests carry no clientInfo, and the unknown base is described by it (capped text, a hint).
  private readonly sessions: BudgetedTable<SessionMemory>;
  private readonly channels: BudgetedTable<SessionMemory>;
  private readonly messagePaths: Set<string>;
  private readonly streamPaths: Set<string>;
  private readonly serverRequests: BudgetedTable<{ method: string }>;
  private readonly pending: BudgetedTable<PendingAnswer<A>>;
  private readonly inFlight: BudgetedTable<InFlight>;
  private readonly tables: readonly { heldBytes: number; budgetBytes: number; evictedForBytes: number }[];

  constructor(options: HttpMeterOptions<A>) {
    this.record = options.record;
    this.clock = options.clock ?? (() => performance.now());
    this.maxAnswerBytes = options.maxAnswerBytes ?? MIB;
    const sessionBytes = options.maxSessionBytes ?? 16 * MIB;
    const pendingBytes = options.maxPendingAnswerBytes ?? 64 * MIB;
    const maxPending = options.maxPendingAnswers ?? 50_000;
    this.sessions = new BudgetedTable<SessionMemory>({ max: options.maxSessions ?? 10_000, maxBytes: sessionBytes, sizeOf: approxBytes });
    this.channels = new BudgetedTable<SessionMemory>({ max: options.maxChannels ?? 10_000, maxBytes: sessionBytes, sizeOf: approxBytes });
    this.messagePaths = new Set((options.httpSseMessagePaths ?? ['/messages']).map(routeKey));
    this.streamPaths = new Set((options.httpSseStreamPaths ?? ['/sse']).map(routeKey));
    this.serverRequests = new BudgetedTable<{ method: string }>({ max: maxPending, maxBytes: pendingBytes, sizeOf: approxBytes });
    // Forgetting an in-flight request only loses the chance to settle it early on a cancel.
    this.inFlight = new BudgetedTable<InFlight>({ max: maxPending, maxBytes: pendingBytes, sizeOf: approxBytes });
    this.pending = new BudgetedTable<PendingAnswer<A>>({
      max: maxPending,
      maxBytes: pendingBytes,
      sizeOf: approxBytes,
      ttlMs: options.pendingAnswerTtlMs ?? 10 * 60_000,
      // Evicted, expired or displaced by a request reusing its id: no answer will reach it now.
      onDrop: (entry) => this.recordPending(entry, 'no-response'),
    });
    this.tables = [this.sessions, this.channels, this.serverRequests, this.inFlight, this.pending];
  }

  readonly lookups: ClassifyLookups = {
    sessionVersion: (id) => this.sessions.get(boundedKey(id))?.version,
    httpSseChannel: (path) => this.channelOf(path),
    isHttpSseStreamPath: (path) => this.isHttpSseStreamPath(path),
    serverRequestMethod: (on, id) => this.serverRequests.get(answerKey(on, id))?.method,
  };

  /** Classifies a request and returns the exchange that follows its answer. */
  begin(facts: HttpRequestFacts, attrs: A): HttpExchange<A> {
    return this.follow(this.classify(facts), facts, attrs);
  }

  /** Classifies a request against what the meter remembers, without following it yet. */
  classify(facts: HttpRequestFacts): HttpRequestClassification {
    const classification = classifyHttpRequest(facts, this.lookups);
    if (classification.clientInfo === undefined) {
      // A request inside a session claims what its initialize claimed.
      const { sessionId } = classification;
      const remembered = sessionId !== undefined ? this.sessions.peek(boundedKey(sessionId)) : classification.messages[0]?.transport === 'http+sse' ? this.channels.peek(boundedKey(facts.path)) : undefined;
      if (remembered?.clientInfo !== undefined) classification.clientInfo = remembered.clientInfo;
    }
    return classification;
  }

  /** The exchange that follows a classified request's answer. */
  follow(classification: HttpRequestClassification, facts: HttpRequestFacts, attrs: A): HttpExchange<A> {
    return new HttpExchange(this, classification, facts, attrs);
  }

  /** Counts every message of a request the sidecar answered itself, refusing it for a plan. */
  refused(classification: HttpRequestClassification, attrs: A, refusal?: RefusalMark): void {
    const { claimMismatch, clientInfo } = classification;
    for (const message of classification.messages) this.record({ message, outcome: 'blocked', claimMismatch, clientInfo, attrs, ...(refusal === undefined ? {} : { refusal }) });
  }

  /** True when the path is an HTTP+SSE message endpoint, configured or learned from an `endpoint` event. */
  /** True for a path where a GET opens an HTTP+SSE stream: configured, or learned from an `endpoint` event. */
  isHttpSseStreamPath(path: string): boolean {
    return this.streamPaths.has(routeKey(path));
  }

  /** A GET at this path opened an HTTP+SSE stream: later ones there are judged as such whatever they carry. */
  learnStreamPath(path: string): void {
    const pathname = routeKey(path);
    if (this.streamPaths.size < MAX_LEARNED_PATHS && pathname.length <= MAX_KEY_CHARS) this.streamPaths.add(pathname);
  }

  isMessageEndpoint(path: string): boolean {
    return this.channelOf(path) !== undefined;
  }

  /**
   * Counts every request still waiting for an answer. At shutdown that is `cancelled`: the drain
   * deadline passed and the sidecar closed the exchanges its answers were due on.
   */
  settleAllPending(outcome: 'cancelled' | 'no-response'): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) this.recordPending(entry, outcome);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  memory(): MeterMemory {
    let heldBytes = 0;
    let budgetBytes = 0;
    let evictedForBytes = 0;
    for (const table of this.tables) {
      heldBytes += table.heldBytes;
      budgetBytes += table.budgetBytes;
      evictedForBytes += table.evictedForBytes;
    }
    return { heldBytes, budgetBytes, evictedForBytes };
  }

  // ---- used by HttpExchange ----

  rememberSession(id: string, version: string | undefined, clientInfo: ClientInfoHint | undefined): void {
    this.sessions.set(boundedKey(id), { version, clientInfo });
  }

  abandonSession(id: string): void {
    const on = boundedKey(`session:${id}`);
    for (const entry of this.inFlight.values()) {
      if (entry.answersArriveOn === on) entry.settle(entry.id, 'cancelled');
    }
    this.settlePendingOn(on, () => 'cancelled');
  }

  endSession(id: string): void {
    this.sessions.delete(boundedKey(id));
    this.settlePendingOn(`session:${id}`, (entry) => (entry.clientLeft ? 'cancelled' : 'no-response'));
  }

  openChannel(path: string): void {
    this.channels.set(boundedKey(path), { version: undefined, clientInfo: undefined });
    // Learned as Express routes: `/MESSAGES/?sessionId=…` reaches the same endpoint.
    const pathname = routeKey(path);
    if (this.messagePaths.size < MAX_LEARNED_PATHS && pathname.length <= MAX_KEY_CHARS) this.messagePaths.add(pathname);
  }

  setChannelVersion(path: string, version: string, clientInfo: ClientInfoHint | undefined): void {
    const key = boundedKey(path);
    if (this.channels.has(key)) this.channels.set(key, { version, clientInfo });
  }

  /** Ends a channel: its unanswered requests will never be answered. */
  closeChannel(path: string): void {
    this.channels.delete(boundedKey(path));
    this.settlePendingOn(`sse:${path}`, (entry) => (entry.clientLeft ? 'cancelled' : 'no-response'));
  }

  rememberServerRequest(answersArriveOn: string, id: JsonRpcId, method: string): void {
    // A method too long to be a label would be folded anyway: not worth holding.
    if (method.length <= MAX_KEY_CHARS) this.serverRequests.set(answerKey(answersArriveOn, id), { method });
  }

  park(entry: PendingAnswer<A>): void {
    const { message } = entry;
    if (message.id === null) return this.recordPending(entry, 'no-response');
    // Held as bounded copies: the id and the key of where the answer arrives may be client-chosen and long.
    const held = { ...entry, answersArriveOn: boundedKey(entry.answersArriveOn), message: { ...message, id: boundedId(message.id) } };
    this.pending.set(answerKey(entry.answersArriveOn, message.id), held);
  }

  claim(answersArriveOn: string, id: JsonRpcId): PendingAnswer<A> | undefined {
    const key = answerKey(answersArriveOn, id);
    const entry = this.pending.get(key);
    if (entry !== undefined) this.pending.delete(key);
    return entry;
  }

  trackInFlight(answersArriveOn: string, id: JsonRpcId, settle: SettleInFlight): void {
    this.inFlight.set(answerKey(answersArriveOn, id), { answersArriveOn: boundedKey(answersArriveOn), id: boundedId(id), settle });
  }

  untrackInFlight(answersArriveOn: string, id: JsonRpcId, settle: SettleInFlight): void {
    const key = answerKey(answersArriveOn, id);
    // A later request reusing the id may have taken the slot: only the owner clears it.
    if (this.inFlight.peek(key)?.settle === settle) this.inFlight.delete(key);
  }

  cancel(answersArriveOn: string, id: JsonRpcId): void {
    const waiting = this.claim(answersArriveOn, id);
    if (waiting !== undefined) return this.recordPending(waiting, 'cancelled');
    const entry = this.inFlight.peek(answerKey(answersArriveOn, id));
    entry?.settle(entry.id, 'cancelled');
  }

  private channelOf(path: string): HttpSseChannel | undefined {
    const channel = this.channels.get(boundedKey(path));
    if (channel !== undefined) return { key: path, version: channel.version };
    return this.messagePaths.has(routeKey(path)) ? { key: undefined, version: undefined } : undefined;
  }

  private settlePendingOn(answersArriveOn: string, outcomeOf: (entry: PendingAnswer<A>) => Outcome): void {
    const on = boundedKey(answersArriveOn);
    for (const [key, entry] of this.pending.entries()) {
      if (entry.answersArriveOn !== on) continue;
      this.pending.delete(key);
      this.recordPending(entry, outcomeOf(entry));
    }
  }

  private recordPending(entry: PendingAnswer<A>, outcome: Outcome): void {
    this.record({ message: entry.message, outcome, claimMismatch: entry.claimMismatch, clientInfo: entry.clientInfo, attrs: entry.attrs, seconds: secondsSince(entry.since, this.clock) });
  }
}

/**
 * The route a path reaches on an Express server, which is how the SDK's HTTP+SSE servers route: no
 * query, no regard to case, and a trailing slash reaches the same route (`/SSE/` opens `/sse`).
 */
function routeKey(path: string): string {
  const query = path.indexOf('?');
  let pathname = query < 0 ? path : path.slice(0, query);
  while (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
  return pathname.toLowerCase();
}

function answerKey(answersArriveOn: string, id: JsonRpcId): string {
  return `${boundedKey(answersArriveOn)}|${typeof id}:${boundedId(id)}`;
}
