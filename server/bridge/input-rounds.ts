import { isRecord } from '../protocol/is-record.js';
import type { EmbeddedInputRequest } from '../protocol/input-required-of.js';
import type { AnswerSink } from './bridge-answer.js';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import { inputRequestId } from './bridge-relay.js';
import type { BridgeSession } from './bridge-session.js';

/** The client failed an input request, or never answered it: the original request fails with this. */
export class InputFailed extends Error {}

type Waiter = (answer: { result: unknown; error: unknown }) => void;

/**
 * What this node waits on for the requests it forwards: the requests themselves, by session and
 * id, so a cancel can close them, and the input requests it sent the client (an elicitation, say),
 * by session and the id it gave them, until the client answers. Maps keyed by strings built here:
 * nothing a client sends becomes a key on its own.
 */
export class InputRounds {
  private readonly forwarding = new Map<string, AbortController>();
  private readonly waiting = new Map<string, Waiter>();

  constructor(
    private readonly ring: BridgeKeyRing,
    private readonly nodeUrl: () => string,
    private readonly timeoutMs: number,
  ) {}

  private static keyOf(session: BridgeSession, id: string | number): string {
    return `${session.id} ${typeof id} ${id}`;
  }

  /** Runs `work` as the forwarding of request `id`, cancellable meanwhile. */
  async run<T>(session: BridgeSession, id: string | number, abort: AbortController, work: () => Promise<T>): Promise<T> {
    const key = InputRounds.keyOf(session, id);
    this.forwarding.set(key, abort);
    try {
      return await work();
    } finally {
      if (this.forwarding.get(key) === abort) this.forwarding.delete(key);
    }
  }

  /** Cancels a request this node forwards; on another node, nothing (it runs to its end). */
  cancel(session: BridgeSession, id: string | number): void {
    this.forwarding.get(InputRounds.keyOf(session, id))?.abort();
  }

  /** True when this node waits for the answer `id`: it is taken. */
  answered(session: BridgeSession, id: string | number, answer: { result: unknown; error: unknown }): boolean {
    const waiter = this.waiting.get(InputRounds.keyOf(session, id));
    if (waiter === undefined) return false;
    waiter(answer);
    return true;
  }

  waits(session: BridgeSession, id: string | number): boolean {
    return this.waiting.has(InputRounds.keyOf(session, id));
  }

  /** Sends one input request to the client on the stream and waits for its answer. */
  ask(answer: AnswerSink, session: BridgeSession, request: EmbeddedInputRequest, signal: AbortSignal): Promise<unknown> {
    const id = inputRequestId(this.ring, this.nodeUrl(), request.method);
    const key = InputRounds.keyOf(session, id);
    return new Promise((resolve, reject) => {
      const done = () => {
        this.waiting.delete(key);
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
      };
      const aborted = () => {
        done();
        reject(new InputFailed('the request was cancelled'));
      };
      const timer = setTimeout(() => {
        done();
        reject(new InputFailed(`the client did not answer ${request.method} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      signal.addEventListener('abort', aborted);
      this.waiting.set(key, ({ result, error }) => {
        done();
        if (error !== undefined) {
          const message = isRecord(error) && typeof error.message === 'string' ? error.message : 'an error';
          return reject(new InputFailed(`the client answered ${request.method} with an error: ${message}`));
        }
        resolve(result);
      });
      answer.event({ jsonrpc: '2.0', id, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) });
    });
  }
}
