import type { OtelHealth } from '../otel/start-otel-export.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLogger, type Logger } from '../lib/create-logger.js';
import { OpenList } from '../lib/open-list.js';
import { createMetering, type FinalFlush, type Metering } from '../metering/create-metering.js';
import { declareEra, type DeclaredEra } from '../protocol/declare-era.js';
import { isMcpRequest } from '../protocol/is-mcp-request.js';
import { placeRequestTarget } from '../sidecar/place-request-target.js';
import { createPolicyRefresher, type PolicyHealth, type PolicyRefresher } from '../metering/create-policy-refresher.js';
import { gateExchange, ungated } from '../sidecar/gate-exchange.js';
import { GuardedExchange } from '../sidecar/guarded-exchange.js';
import { httpMeterOptions } from '../metering/http-meter-options.js';
import { HttpMeter } from '../sidecar/http-meter.js';
import type { Caller, CallerIdentifier } from '../sidecar/identify-caller.js';
import { authChallengeFromConfig, callerIdentifierFromConfig } from '../metering/caller-identifier-from-config.js';
import type { Observation } from '../sidecar/observation.js';
import type { DeferredExchange } from './deferred-exchange.js';
import { EnforcedRequest, type RequestGate } from './enforced-request.js';
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
  /** The retirement policy in force here, as /healthz reports it for a sidecar; undefined until the store has opened. */
  policy(): PolicyHealth | undefined;
  /** The OpenTelemetry export's state (what /healthz reports as `otel`); null while it is off or the store has not opened. */
  otel(): OtelHealth | null;
}

/**
 * Metering and enforcement inside the host's own Express (or node:http) app, mounted in front of
 * its MCP handler: the proxy's classifier, outcome rules, policy decisions, tally and store, without
 * a proxy. Counts are in memory on the request path; the flusher writes them on its interval, and the
 * policy is recompiled from the store (shared with the fleet) at most 5 s late.
 *
 * While no plan enforces, it only watches: the request body is seen on its way to the handler and
 * the answer as the handler writes it, neither changed, and a fault of its own costs counts, never
 * the request. While one does, each request is decided before the handler sees it, as the proxy
 * decides before it forwards: a POST body is held back until it has arrived, then a refused request
 * gets the plan's refusal from the middleware and never reaches the handler, and a passed one goes on
 * untouched, its answer carrying the plan's announcement headers.
 *
 * The store opens in the background: requests that arrive before it (and the first policy) are
 * ready wait, untouched, so the first ones are counted and decided like every later one.
 */
export function meter(options?: MeterOptions): MeterMiddleware {
  const { config, now, logger: given } = resolveMeterOptions(options);
  const logger: Logger = given ?? createLogger(config.logLevel);
  let metering: Metering | undefined;
  let identify: CallerIdentifier | undefined;
  let policy: PolicyRefresher | undefined;
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
  }, { kind: 'middleware', startedAt: now(), policyVersion: () => policy?.current().version ?? 0, pausedPlans: () => policy?.current().pausedPlans(now()).length ?? 0 }).then(
    async (opened) => {
      const refresher = createPolicyRefresher({ store: opened.store, now, supportedVersions: config.enforcement.supportedVersions, logger });
      await refresher.start();
      policy = refresher;
      metering = opened;
      identify = callerIdentifierFromConfig(config.identity, opened.installSecret);
      if (closing === undefined) opened.flusher.start();
      else refresher.stop();
    },
    // createMetering answers even without a store; this is a fault of its own, and costs counts only.
    (error: unknown) => onInternalError(error, 'open'),
  );
  const open = new OpenList<DeferredExchange<MeteredCaller>>();
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
  // How the app asks a client to sign in: learned from its own 401s, told to refused clients with no credential.
  const authChallenge = authChallengeFromConfig(config.identity);
  const challenge = () => authChallenge.current();
  const gate: RequestGate<MeteredCaller> = {
    decide(facts, attrs) {
      if (closing !== undefined) return ungated(onInternalError);
      return gateExchange(httpMeter, facts, attrs, policy?.current(), now, onInternalError, undefined, challenge);
    },
    track: trackDeclaration,
  };
  let closing: Promise<FinalFlush> | undefined;

  /** Answers true when the request was taken over to be decided, and calls next() itself. */
  function watch(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): boolean {
    if (metering === undefined || identify === undefined) return false;
    const method = req.method ?? 'GET';
    // Mounted under a path, Express strips it from req.url; the classifier and HTTP+SSE endpoints need the path the client sent.
    const sent = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const path = placeRequestTarget(sent) ?? sent;
    const streamPath = method === 'GET' && httpMeter.isHttpSseStreamPath(path);
    if (!(streamPath || isMcpRequest({ method, path, headers: req.headers }) || httpMeter.isMessageEndpoint(path))) {
      metering.countNonMcp();
      return false;
    }
    const attrs: MeteredCaller = { ...identify(req) };
    // Only an answer to a request with no credential says how to sign in: others need no listener.
    if (req.headers.authorization === undefined) res.once('finish', () => authChallenge.observe(res.statusCode, false, res.getHeader('www-authenticate') as string | string[] | undefined));
    if (policy?.current().enforcing === true) {
      new EnforcedRequest(requestMeter, gate, req, res, next, method, path, attrs).run();
      return true;
    }
    trackDeclaration(res, attrs);
    new WatchedRequest(requestMeter, req, method, path, attrs).watch(res);
    return false;
  }

  const handle = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void, verified = false) => {
    if (closing === undefined && !verified) {
      let waiting: Promise<void> | undefined;
      try {
        waiting = identify?.ready(req);
      } catch (error) {
        onInternalError(error, 'identify');
      }
      // A token seen for the first time: its verdict (or the wait's bound) first, as the proxy does.
      if (waiting !== undefined) {
        const go = () => handle(req, res, next, true);
        return void waiting.then(go, go);
      }
    }
    if (closing === undefined) {
      try {
        if (watch(req, res, next)) return;
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
  middleware.policy = () => policy?.health();
  middleware.otel = () => metering?.otelHealth() ?? null;
  middleware.close = () => {
    closing ??= ready.then(async () => {
      policy?.stop();
      for (const exchange of open.takeAll()) exchange.cancel();
      httpMeter.settleAllPending('cancelled');
      if (metering === undefined) return { spooled: 0, lost: 0 };
      const final = await metering.finish();
      identify?.close();
      await metering.store?.close();
      return final;
    });
    return closing;
  };
  return middleware;
}
