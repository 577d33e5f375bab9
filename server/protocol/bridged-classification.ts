/**
 * How a request the bridge answers is counted. Pure.
 */
import { classified } from './classified-message.js';
import type { HttpRequestClassification } from './classify-http-request.js';

/**
 * The classification of a request the bridge takes, or undefined when it is not the bridge's: only
 * legacy traffic is bridged, and modern or unclassifiable requests go to the server as they are.
 * Every message of a bridged request is filed as legacy under reason `bridge`, at the version its
 * session negotiated (carried in the session id, so any node knows it); an `initialize` keeps the
 * version it asked for until its answer fixes the negotiated one. The modern request the bridge
 * makes of it goes straight to the server, so it is never counted a second time.
 */
export function bridgedClassification(classification: HttpRequestClassification, sessionVersion: string | null): HttpRequestClassification | undefined {
  const { messages } = classification;
  let legacy = false;
  for (const message of messages) if (message.era === 'legacy') legacy = true;
  if (!legacy) return undefined;
  return {
    ...classification,
    messages: messages.map((message) => classified({ ...message, era: 'legacy', reason: 'bridge', version: sessionVersion ?? message.version })),
  };
}
