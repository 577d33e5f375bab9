import type { ClassifiedMessage } from '../protocol/classified-message.js';
import { classifyStdioLine, type StdioLineClassification, type StdioProcessState } from '../protocol/classify-stdio-line.js';
import { parseJson, readJsonRpc, type JsonRpcId } from '../protocol/read-json-rpc.js';
import { settleWithAnswer } from '../protocol/settle-message.js';
import { METHOD } from '../protocol/method-names.js';
import { approxBytes } from './approx-bytes.js';
import { boundedId } from './bounded-key.js';
import { BudgetedTable } from './budgeted-table.js';
import { heldLabel } from './held-label.js';
import type { MeterMemory } from './http-meter.js';
import type { RecordObservation, RefusalMark } from './observation.js';
import { secondsSince } from './seconds-since.js';

const MIB = 1024 * 1024;

export interface StdioMeterOptions {
  /** Requests awaiting their answer remembered (and, separately, requests the server sent). */
  maxOpen?: number;
  /** Bytes each of those two tables may hold, as estimated. */
  maxOpenBytes?: number;
  /** Monotonic milliseconds for request durations; performance.now by default. */
  clock?: () => number;
}

interface OpenRequest<A> {
  message: ClassifiedMessage;
  attrs: A;
  /** When the line was written to the server, on the meter's clock. */
  since: number;
}

/** Ids are scoped per process and told apart by type; a long string id is keyed by its digest. */
function idKey(id: JsonRpcId): string {
  return `${typeof id}:${boundedId(id)}`;
}

/** The message as it is held until settled: no client-chosen string in it is longer than a bound. */
function heldMessage(message: ClassifiedMessage): ClassifiedMessage {
  return {
    ...message,
    id: message.id === null ? null : boundedId(message.id),
    method: heldLabel(message.method),
    version: message.version === null ? null : heldLabel(message.version),
  };
}

/**
 * Meters one stdio server process: client lines are classified as they are written, and each
 * request is recorded when the server's answer with the same id comes back on stdout (ids are
 * scoped per process), or as `cancelled` when the client's `notifications/cancelled` names it
 * first. Notifications have no acknowledgement on stdio and are recorded at once. Both tables are
 * bounded in entries and in bytes, and hold ids, methods and versions in bounded form.
 */
export class StdioMeter<A> {
  private initializeSeen = false;
  private negotiatedVersion: string | undefined;
  private readonly open: BudgetedTable<OpenRequest<A>>;
  private readonly serverRequests: BudgetedTable<{ method: string }>;
  private readonly clock: () => number;

  constructor(
    private readonly record: RecordObservation<A>,
    options: StdioMeterOptions = {},
  ) {
    this.clock = options.clock ?? (() => performance.now());
    const max = options.maxOpen ?? 10_000;
    const maxBytes = options.maxOpenBytes ?? 64 * MIB;
    this.open = new BudgetedTable<OpenRequest<A>>({
      max,
      maxBytes,
      sizeOf: approxBytes,
      // Pushed out (by either cap), or displaced by a request reusing its id: no answer will reach it now.
      onDrop: (entry) => this.settle(entry, 'no-response'),
    });
    // Forgetting a server request only costs its answer's grouping under the method.
    this.serverRequests = new BudgetedTable<{ method: string }>({ max, maxBytes, sizeOf: approxBytes });
  }

  private readonly serverRequestMethod = (id: JsonRpcId): string | undefined => this.serverRequests.get(idKey(id))?.method;

  /** The version the process negotiated, once its initialize was answered. */
  get negotiated(): string | undefined {
    return this.negotiatedVersion;
  }

  /** A line the client wrote to the server's stdin. */
  clientLine(line: string, attrs: A): void {
    if (line.trim() === '') return;
    this.clientLineForwarded(this.classifyClientLine(line), attrs);
  }

  /** Classifies a client line by what the process has seen so far, without taking it in. */
  classifyClientLine(line: string): StdioLineClassification {
    const state: StdioProcessState = {
      initializeSeen: this.initializeSeen,
      negotiatedVersion: this.negotiatedVersion,
      serverRequestMethod: this.serverRequestMethod,
    };
    return classifyStdioLine(line, state);
  }

  /** Takes in a classified client line the server was given. */
  clientLineForwarded({ messages, cancels }: StdioLineClassification, attrs: A): void {
    for (const message of messages) {
      if (message.method === METHOD.initialize && message.kind === 'request') this.initializeSeen = true;
      if (message.kind === 'request' && message.id !== null) {
        this.open.set(idKey(message.id), { message: heldMessage(message), attrs, since: this.clock() });
        continue;
      }
      this.record({ message, outcome: 'no-response', claimMismatch: false, clientInfo: undefined, attrs });
    }
    for (const id of cancels) this.cancel(id);
  }

  /**
   * Counts every message of a client line a plan refused as `blocked`. The server never saw the
   * line, so the process is left as it was: a refused `initialize` does not make it legacy.
   */
  clientLineRefused({ messages }: StdioLineClassification, attrs: A, refusal?: RefusalMark): void {
    for (const message of messages) this.record({ message, outcome: 'blocked', claimMismatch: false, clientInfo: undefined, attrs, ...(refusal === undefined ? {} : { refusal }) });
  }

  /** The client gave up on a request: it is settled now, and an answer that still comes is ignored. */
  private cancel(id: JsonRpcId): void {
    const key = idKey(id);
    const entry = this.open.peek(key);
    // `initialize` cannot be cancelled: the server still answers it, and that answer sets the version.
    if (entry === undefined || entry.message.method === METHOD.initialize) return;
    this.open.delete(key);
    this.settle(entry, 'cancelled');
  }

  /** A line the server wrote to stdout: answers settle requests; requests are remembered. */
  serverLine(line: string): void {
    const parsed = parseJson(line);
    if (!parsed.ok) return;
    const elements: unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    for (const element of elements) {
      const rpc = readJsonRpc(element);
      if (rpc.kind === 'request') this.serverRequests.set(idKey(rpc.id), { method: heldLabel(rpc.method) });
      if (rpc.kind !== 'response' || rpc.id === null) continue;
      const key = idKey(rpc.id);
      const entry = this.open.get(key);
      if (entry === undefined) continue;
      this.open.delete(key);
      const settled = settleWithAnswer(entry.message, rpc, undefined);
      if (settled.message.method === METHOD.initialize && settled.outcome === 'served') {
        // The server's answer names it, and it is held in every later message of the process.
        this.negotiatedVersion = settled.message.version === null ? undefined : heldLabel(settled.message.version);
      }
      this.record({ message: settled.message, outcome: settled.outcome, claimMismatch: false, clientInfo: undefined, attrs: entry.attrs, seconds: secondsSince(entry.since, this.clock) });
    }
  }

  /** The process ended: what it never answered, and the client never cancelled, gets `no-response`. */
  close(): void {
    const entries = this.open.values();
    this.open.clear();
    for (const entry of entries) this.settle(entry, 'no-response');
  }

  /** Bytes the meter's tables hold now, as estimated. */
  get heldBytes(): number {
    return this.open.heldBytes + this.serverRequests.heldBytes;
  }

  memory(): MeterMemory {
    return {
      heldBytes: this.heldBytes,
      budgetBytes: this.open.budgetBytes + this.serverRequests.budgetBytes,
      evictedForBytes: this.open.evictedForBytes + this.serverRequests.evictedForBytes,
    };
  }

  private settle(entry: OpenRequest<A>, outcome: 'no-response' | 'cancelled'): void {
    this.record({ message: entry.message, outcome, claimMismatch: false, clientInfo: undefined, attrs: entry.attrs, seconds: secondsSince(entry.since, this.clock) });
  }
}
