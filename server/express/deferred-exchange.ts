import type { IncomingHttpHeaders } from 'node:http';
import { createBodyObserver, type BodyObserver } from '../sidecar/body-observer.js';
import type { GuardedExchange } from '../sidecar/guarded-exchange.js';
import type { Listed } from '../lib/open-list.js';
import type { ResponseSink } from './tap-response.js';

type Op<A> = (exchange: GuardedExchange<A>) => void;

/** The request a deferred exchange belongs to. */
export interface ExchangeOwner<A> {
  /** Classifies the request, with whatever of its body was seen. */
  start(): GuardedExchange<A>;
  /** Every message of the exchange is counted, or it was cut short. */
  settled(exchange: DeferredExchange<A>): void;
  /** The handler ended its answer before the body was all seen. */
  answeredEarly(): void;
}

/**
 * The answer's side of one metered exchange. A handler may answer before the request body has
 * been seen (a refusal written as soon as the headers arrive): what it writes waits here, bounded
 * in bytes, until the exchange is classified, then reaches the meter in the order it was written.
 */
export class DeferredExchange<A> implements ResponseSink, Listed {
  openSlot = -1;
  private exchange: GuardedExchange<A> | undefined;
  private readonly queue: Op<A>[] = [];
  private queuedBytes = 0;
  private observer: BodyObserver | undefined;
  private cut = false;

  constructor(
    private readonly owner: ExchangeOwner<A>,
    private readonly maxQueuedBytes: number,
  ) {}

  /** Classifies now, with whatever of the body was seen, and passes on what waited. */
  begin(): void {
    if (this.exchange !== undefined || this.cut) return;
    this.exchange = this.owner.start();
    for (const op of this.queue.splice(0)) op(this.exchange);
    this.queuedBytes = 0;
  }

  // Each call goes straight to the meter once the exchange is classified (the usual case: the body
  // came before the answer); only what is written earlier is wrapped up to wait in the queue.
  head(status: number, headers: IncomingHttpHeaders): void {
    if (this.cut) return;
    if (this.exchange === undefined) this.queue.push((exchange) => this.headNow(exchange, status, headers));
    else this.headNow(this.exchange, status, headers);
  }

  chunk(chunk: Buffer): void {
    if (this.cut) return;
    if (this.exchange === undefined) {
      this.queuedBytes += chunk.length;
      if (this.queuedBytes > this.maxQueuedBytes) this.begin();
    }
    if (this.exchange === undefined) this.queue.push(() => this.observer?.write(chunk));
    else this.observer?.write(chunk);
  }

  end(): void {
    if (this.exchange === undefined && !this.cut) this.owner.answeredEarly();
    if (this.cut) return;
    if (this.exchange === undefined) this.queue.push((exchange) => this.endNow(exchange));
    else this.endNow(this.exchange);
  }

  closed(): void {
    // The client is gone: nothing more of the body will come, so classify with what there is.
    this.begin();
    this.run((exchange) => exchange.clientClosed());
    this.owner.settled(this);
  }

  /** At the meter's close: counts what is still open as cancelled, and ignores the rest. */
  cancel(): void {
    this.begin();
    this.exchange?.clientClosed();
    this.cut = true;
  }

  private headNow(exchange: GuardedExchange<A>, status: number, headers: IncomingHttpHeaders): void {
    exchange.responseHead(status, headers);
    const encoding = headers['content-encoding'];
    if (exchange.active) this.observer = createBodyObserver(Array.isArray(encoding) ? encoding[0] : encoding, (bytes) => exchange.responseBytes(bytes));
  }

  private endNow(exchange: GuardedExchange<A>): void {
    const observer = this.observer;
    if (observer === undefined) exchange.responseEnd();
    else observer.end(() => exchange.responseEnd());
    this.owner.settled(this);
  }

  private run(op: Op<A>): void {
    if (this.cut) return;
    if (this.exchange === undefined) this.queue.push(op);
    else op(this.exchange);
  }
}
