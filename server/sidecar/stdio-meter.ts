import { LRUCache } from 'lru-cache';
import type { ClassifiedMessage } from '../protocol/classified-message.js';
import { classifyStdioLine, type StdioProcessState } from '../protocol/classify-stdio-line.js';
import { parseJson, readJsonRpc, type JsonRpcId } from '../protocol/read-json-rpc.js';
import { settleWithAnswer } from '../protocol/settle-message.js';
import type { RecordObservation } from './observation.js';
import { METHOD } from '../protocol/method-names.js';

const MAX_OPEN = 10_000;

function idKey(id: JsonRpcId): string {
  return `${typeof id}:${id}`;
}

/**
 * Meters one stdio server process: client lines are classified as they are written, and each
 * request is recorded when the server's answer with the same id comes back on stdout (ids are
 * scoped per process), or as `cancelled` when the client's `notifications/cancelled` names it
 * first. Notifications have no acknowledgement on stdio and are recorded at once.
 */
export class StdioMeter<A> {
  private initializeSeen = false;
  private negotiatedVersion: string | undefined;
  private readonly open = new LRUCache<string, { message: ClassifiedMessage; attrs: A }>({
    max: MAX_OPEN,
    dispose: (entry, _key, reason) => {
      // Evicted, or displaced by a request reusing its id: no answer will reach it now.
      if (reason === 'evict' || reason === 'set') this.record({ message: entry.message, outcome: 'no-response', claimMismatch: false, clientInfo: undefined, attrs: entry.attrs });
    },
  });
  private readonly serverRequests = new LRUCache<string, string>({ max: MAX_OPEN });

  constructor(private readonly record: RecordObservation<A>) {}

  private readonly serverRequestMethod = (id: JsonRpcId): string | undefined => this.serverRequests.get(idKey(id));

  /** A line the client wrote to the server's stdin. */
  clientLine(line: string, attrs: A): void {
    if (line.trim() === '') return;
    const state: StdioProcessState = {
      initializeSeen: this.initializeSeen,
      negotiatedVersion: this.negotiatedVersion,
      serverRequestMethod: this.serverRequestMethod,
    };
    const { messages, cancels } = classifyStdioLine(line, state);
    for (const message of messages) {
      if (message.method === METHOD.initialize && message.kind === 'request') this.initializeSeen = true;
      if (message.kind === 'request' && message.id !== null) {
        this.open.set(idKey(message.id), { message, attrs });
        continue;
      }
      this.record({ message, outcome: 'no-response', claimMismatch: false, clientInfo: undefined, attrs });
    }
    for (const id of cancels) this.cancel(id);
  }

  /** The client gave up on a request: it is settled now, and an answer that still comes is ignored. */
  private cancel(id: JsonRpcId): void {
    const key = idKey(id);
    const entry = this.open.peek(key);
    // `initialize` cannot be cancelled: the server still answers it, and that answer sets the version.
    if (entry === undefined || entry.message.method === METHOD.initialize) return;
    this.open.delete(key);
    this.record({ message: entry.message, outcome: 'cancelled', claimMismatch: false, clientInfo: undefined, attrs: entry.attrs });
  }

  /** A line the server wrote to stdout: answers settle requests; requests are remembered. */
  serverLine(line: string): void {
    const parsed = parseJson(line);
    if (!parsed.ok) return;
    const elements: unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    for (const element of elements) {
      const rpc = readJsonRpc(element);
      if (rpc.kind === 'request') this.serverRequests.set(idKey(rpc.id), rpc.method);
      if (rpc.kind !== 'response' || rpc.id === null) continue;
      const key = idKey(rpc.id);
      const entry = this.open.get(key);
      if (entry === undefined) continue;
      this.open.delete(key);
      const settled = settleWithAnswer(entry.message, rpc, undefined);
      if (settled.message.method === METHOD.initialize && settled.outcome === 'served') {
        this.negotiatedVersion = settled.message.version ?? undefined;
      }
      this.record({ message: settled.message, outcome: settled.outcome, claimMismatch: false, clientInfo: undefined, attrs: entry.attrs });
    }
  }

  /** The process ended: what it never answered, and the client never cancelled, gets `no-response`. */
  close(): void {
    const entries = [...this.open.values()];
    this.open.clear();
    for (const entry of entries) {
      this.record({ message: entry.message, outcome: 'no-response', claimMismatch: false, clientInfo: undefined, attrs: entry.attrs });
    }
  }
}
