import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLogger, type Logger } from '../lib/create-logger.js';
import { createMetering, type FinalFlush, type Metering } from '../metering/create-metering.js';
import { declareEra, type DeclaredEra } from '../protocol/declare-era.js';
import { isMcpRequest } from '../protocol/is-mcp-request.js';
import { GuardedExchange } from '../sidecar/guarded-exchange.js';
import { httpMeterOptions } from '../metering/http-meter-options.js';
import { HttpMeter } from '../sidecar/http-meter.js';
import { createCallerIdentifier, type Caller } from '../sidecar/identify-caller.js';
import type { Observation } from '../sidecar/observation.js';
import type { DeferredExchange } from './deferred-exchange.js';
import { resolveMeterOptions, type MeterOptions } from './resolve-meter-options.js';
import { servedBy, trackDeclaration, type Declaration } from './served-by.js';
import { WatchedRequest, type RequestMeter } from './watched-request.js';

type MeteredCaller = Caller & Declaration;

export interface MeterMiddleware {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  /** Declares which era served this response's request; see `servedBy`. */
  servedBy(res: ServerResponse, era: DeclaredEra): void;
  /** Counts what is still open as cancelled, flushes (or spools what the store refuses) and closes the store. */
  close(): Promise<FinalFlush>;
}

/**
 * The middleware meters and enforces nothing yet, so it runs no policy: its heartbeat names version 0
 * and the fleet never counts it as lagging.
 */
const MIDDLEWARE_POLICY_VERSION = 0;

/**
 * Metering inside the host's own Express (or node:http) app, mounted in front of its MCP handler:
 * the proxy's classifier, outcome rules, tally and store, without a proxy. It only watches: the
 * request body is seen on its way to the handler and the answer as the handler writes it, neither
 * changed, and a fault of its own costs counts, never the request. Counts are in memory on the
 * request path; the flusher writes them on its interval.
 *
 * The store opens in the background: requests that arrive before it has (or has failed to) wait for
 * it, untouched, so the first ones are counted under the install's caller keys like every later one.
 */
export function meter(options?: MeterOptions): MeterMiddleware {
  const { config, now, logger: given } = resolveMeterOptions(options);
  const logger: Logger = given ?? createLogger(config.logLevel);
  let metering: Metering | undefined;
  let identify: ((req: IncomingMessage) => Caller) | undefined;
  const count = (observation: Observation<MeteredCaller>) => {
    const era = observation.attrs.declaredEra;
    metering?.record(era === undefined ? observation : { ...observation, message: declareEra(observation.message, era) });
  };
  const httpMeter = new HttpMeter<MeteredCaller>(httpMeterOptions(config, count));
  const onInternalError = (error: unknown, where: string) => {
    metering?.metrics.meteringErrors.inc({ where });
    logger.error({ err: error, where }, 'metering error; the request was served unmetered');
  };
  const ready = createMetering(config, logger, now, {
    pendingAnswers: () => httpMeter.pendingCount,
    sessions: () => httpMeter.sessionCount,
    meterMemory: () => httpMeter.memory(),
  }, { kind: 'middleware', startedAt: now(), policyVersion: () => MIDDLEWARE_POLICY_VERSION }).then(
    (opened) => {
      metering = opened;
      identify = createCallerIdentifier({ secret: opened.installSecret, ...config.identity });
      if (closing === undefined) opened.flusher.start();
    },
    // createMetering answers even without a store; this is a fault of its own, and costs counts only.
    (error: unknown) => onInternalError(error, 'open'),
  );
  const open = new Set<DeferredExchange<MeteredCaller>>();
  const requestMeter: RequestMeter<MeteredCaller> = {
    start(facts, attrs) {
      try {
        return new GuardedExchange(httpMeter.begin(facts, attrs), onInternalError);
      } catch (error) {
        onInternalError(error, 'classify');
        return new GuardedExchange<MeteredCaller>(undefined, onInternalError);
      }
    },
    report: onInternalError,
    open,
    maxBodyBytes: config.maxBodyBytes,
    maxAnswerBytes: config.maxAnswerBytes,
  };
  let closing: Promise<FinalFlush> | undefined;

  function watch(req: IncomingMessage, res: ServerResponse): void {
    if (metering === undefined || identify === undefined) return;
    const method = req.method ?? 'GET';
    // Mounted under a path, Express strips it from req.url; the classifier and HTTP+SSE endpoints need the path the client sent.
    const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    if (!(isMcpRequest({ method, path, headers: req.headers }) || httpMeter.isMessageEndpoint(path))) return metering.countNonMcp();
    const attrs: MeteredCaller = { ...identify(req) };
    trackDeclaration(res, attrs);
    new WatchedRequest(requestMeter, req, method, path, attrs).watch(res);
  }

  const handle = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    if (closing === undefined) {
      try {
        watch(req, res);
      } catch (error) {
        onInternalError(error, 'watch');
      }
    }
    next();
  };
  const middleware = ((req, res, next) => {
    if (metering !== undefined) handle(req, res, next);
    else void ready.then(() => handle(req, res, next));
  }) as MeterMiddleware;
  middleware.servedBy = servedBy;
  middleware.close = () => {
    closing ??= ready.then(async () => {
      for (const exchange of [...open]) exchange.cancel();
      open.clear();
      httpMeter.settleAllPending('cancelled');
      if (metering === undefined) return { spooled: 0, lost: 0 };
      const final = await metering.finish();
      await metering.store?.close();
      return final;
    });
    return closing;
  };
  return middleware;
}
