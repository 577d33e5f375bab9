import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRequestFacts } from '../protocol/classify-http-request.js';
import { refusalHeaders, type GatedExchange } from '../sidecar/gate-exchange.js';
import type { GuardedExchange } from '../sidecar/guarded-exchange.js';
import { DeferredExchange, type ExchangeOwner } from './deferred-exchange.js';
import { holdRequestBody, type BodyHold } from './hold-request-body.js';
import type { TappedBody } from './tap-request-body.js';
import { tapResponse } from './tap-response.js';
import type { RequestMeter } from './watched-request.js';

/** What decides a request under an enforcing policy; never throws. */
export interface RequestGate<A> {
  /** Classifies the request, decides it and opens its exchange, or answers its refusal. */
  decide(facts: HttpRequestFacts, attrs: A): GatedExchange<A>;
  /** Ties the attributes the exchange counts under to the response, for servedBy. */
  track(res: ServerResponse, attrs: A): void;
}

/**
 * One request met while a plan enforces: decided before the handler sees it, as the proxy decides
 * before it forwards. A POST body is held back (within maxBodyBytes) until it has all arrived, so
 * the decision reads its text; then either the handler gets the request untouched (with the plan's
 * announcement headers set on the answer) and its answer is watched, or the middleware answers the
 * refusal itself and the handler never runs.
 */
export class EnforcedRequest<A> implements ExchangeOwner<A> {
  private exchange: GuardedExchange<A> | undefined;

  constructor(
    private readonly meter: RequestMeter<A>,
    private readonly gate: RequestGate<A>,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly next: (error?: unknown) => void,
    private readonly method: string,
    private readonly path: string,
    private readonly attrs: A,
  ) {}

  /** Takes the request over: next() is called once, unless the middleware answers the request itself. Never throws. */
  run(): void {
    if (this.method !== 'POST') return this.decide({ text: undefined, complete: true }, undefined);
    try {
      holdRequestBody(this.req, this.meter.maxBodyBytes, this.bodySeen.bind(this));
    } catch (error) {
      this.meter.report(error, 'hold');
      this.next();
    }
  }

  start(): GuardedExchange<A> {
    return this.exchange!;
  }

  settled(exchange: DeferredExchange<A>): void {
    this.meter.open.delete(exchange);
  }

  answeredEarly(): void {
    // Never: the exchange is open before the handler runs.
  }

  private bodySeen(body: TappedBody | undefined, hold: BodyHold): void {
    // The client left mid-body: nobody waits for an answer, and nothing is counted, as with the proxy.
    if (body === undefined) return this.next();
    this.decide(body, hold);
  }

  private decide(body: TappedBody, hold: BodyHold | undefined): void {
    const { req, res } = this;
    const facts: HttpRequestFacts = { method: this.method, path: this.path, headers: req.headers, body: body.text, bodyTooLarge: !body.complete };
    if (body.others !== undefined && body.others.length > 0) facts.otherReadings = body.others;
    if (body.unreadableEncoding === true) facts.unreadableEncoding = true;
    const gated = this.gate.decide(facts, this.attrs);
    const { refusal } = gated;
    if (refusal !== undefined) {
      try {
        hold?.discard();
        // A GET or DELETE body is drained the same way, so the connection stays usable.
        if (hold === undefined) req.resume();
        res.writeHead(refusal.status, refusalHeaders(refusal, gated.decision.headers));
        res.end(refusal.body);
      } catch (error) {
        this.meter.report(error, 'refuse');
        if (!res.writableEnded) res.destroy();
      }
      return;
    }
    try {
      this.open(gated);
    } catch (error) {
      this.meter.report(error, 'watch');
    }
    hold?.release();
    this.next();
  }

  private open({ exchange, decision, attrs }: GatedExchange<A>): void {
    const announce = decision.headers;
    // Set before the handler runs, so they join whatever head it writes; a header it sets under the same name replaces them.
    for (let i = 0; i + 1 < announce.length; i += 2) this.res.appendHeader(announce[i]!, announce[i + 1]!);
    if (!exchange.active || attrs === undefined) return;
    this.exchange = exchange;
    this.gate.track(this.res, attrs);
    const deferred = new DeferredExchange<A>(this, this.meter.maxAnswerBytes);
    this.meter.open.add(deferred);
    tapResponse(this.res, deferred, this.meter.report);
    deferred.begin();
  }
}
