import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRequestFacts } from '../protocol/classify-http-request.js';
import type { OpenList } from '../lib/open-list.js';
import type { GuardedExchange } from '../sidecar/guarded-exchange.js';
import { DeferredExchange, type ExchangeOwner } from './deferred-exchange.js';
import { tapRequestBody, type TappedBody } from './tap-request-body.js';
import { tapResponse } from './tap-response.js';

/** What every watched request of one middleware shares. */
export interface RequestMeter<A> {
  /** Classifies the request and opens its exchange; never throws. */
  start(facts: HttpRequestFacts, attrs: A): GuardedExchange<A>;
  report(error: unknown, where: string): void;
  /** Exchanges not settled yet, for close(). */
  open: OpenList<DeferredExchange<A>>;
  maxBodyBytes: number;
  maxAnswerBytes: number;
}

/**
 * One metered request: its body seen on the way to the handler, its answer as the handler writes
 * it. Its steps are methods rather than closures, so watching a request allocates a few objects
 * and creates no functions beyond the taps' bound wrappers.
 */
export class WatchedRequest<A> implements ExchangeOwner<A> {
  private body: TappedBody;
  private tap: { stop(): void } | undefined;
  private draining = false;
  private readonly exchange: DeferredExchange<A>;

  constructor(
    private readonly meter: RequestMeter<A>,
    private readonly req: IncomingMessage,
    private readonly method: string,
    private readonly path: string,
    private readonly attrs: A,
  ) {
    this.body = { text: undefined, complete: method !== 'POST' };
    this.exchange = new DeferredExchange<A>(this, meter.maxAnswerBytes);
  }

  watch(res: ServerResponse): void {
    this.meter.open.add(this.exchange);
    if (this.method !== 'POST') {
      tapResponse(res, this.exchange, this.meter.report);
      return this.begin();
    }
    tapResponse(res, this.exchange, this.meter.report, this.responseClosed.bind(this));
    this.tap = tapRequestBody(this.req, this.meter.maxBodyBytes, this.bodySeen.bind(this));
  }

  start(): GuardedExchange<A> {
    const { body } = this;
    return this.meter.start({ method: this.method, path: this.path, headers: this.req.headers, body: body.text, bodyTooLarge: !body.complete, ...(body.unreadableEncoding === true ? { unreadableEncoding: true } : {}) }, this.attrs);
  }

  settled(exchange: DeferredExchange<A>): void {
    this.meter.open.delete(exchange);
  }

  /**
   * The handler answered without reading the body (a refusal on the headers, say). Node would now
   * discard the unread rest; reading it to its end through the tap instead costs the handler
   * nothing and lets the request be classified from its body, as the proxy would. Only then is the
   * request's own end watched: otherwise the response's close says all the meter needs, and an
   * 'error' listener of ours would change what the request emits to the host's.
   */
  answeredEarly(): void {
    const { req } = this;
    if (req.readableFlowing !== null || req.readableEnded) return;
    this.draining = true;
    const giveUp = this.giveUp.bind(this);
    req.once('close', giveUp);
    req.once('error', giveUp);
    req.resume();
  }

  private bodySeen(body: TappedBody): void {
    this.body = body;
    this.begin();
  }

  private responseClosed(): void {
    if (!this.draining) this.giveUp();
  }

  /** The body will not be seen whole: classify with what there is. */
  private giveUp(): void {
    this.tap?.stop();
    this.begin();
  }

  private begin(): void {
    try {
      this.exchange.begin();
    } catch (error) {
      this.meter.report(error, 'begin');
    }
  }
}
