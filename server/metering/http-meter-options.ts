import type { Config } from '../config/config-schema.js';
import type { HttpMeterOptions } from '../sidecar/http-meter.js';
import type { RecordObservation } from '../sidecar/observation.js';

/** The HTTP meter's bounds as the settings give them, for the proxy and the middleware alike. */
export function httpMeterOptions<A>(config: Readonly<Config>, record: RecordObservation<A>): HttpMeterOptions<A> {
  return {
    record,
    maxSessions: config.caps.sessions,
    maxChannels: config.caps.sessions,
    maxPendingAnswers: config.caps.pendingAnswers,
    maxSessionBytes: config.caps.sessionsBytes,
    maxPendingAnswerBytes: config.caps.pendingAnswersBytes,
    httpSseMessagePaths: config.httpSseMessagePaths,
    httpSseStreamPaths: config.httpSseStreamPaths,
    maxAnswerBytes: config.maxAnswerBytes,
  };
}
