/**
 * How a request the bridge answers is counted. Pure.
 */
import { classified } from './classified-message.js';
import type { HttpRequestClassification } from './classify-http-request.js';
import { NON_RPC_METHOD } from './vocabulary.js';

/** What the bridge knows of the requests it sent a client, whichever node sent them. */
export interface BridgeRequestLookup {
  /** The method of an input request (an elicitation, say) the bridge sent under `id`. */
  inputRequestMethod(id: string | number): string | undefined;
}

/**
 * The classification of a request the bridge takes, or undefined when it is not the bridge's: only
 * legacy traffic is bridged, and modern or unclassifiable requests go to the server as they are.
 * Every message of a bridged request is filed as legacy under reason `bridge`, at the version its
 * session negotiated (carried in the session id, so any node knows it); an `initialize` keeps the
 * version it asked for until its answer fixes the negotiated one. A client's answer to a request
 * the bridge sent is filed under that request's method, which the bridge reads from the id. The
 * modern request the bridge makes of it goes straight to the server, so it is never counted a
 * second time.
 */
export function bridgedClassification(classification: HttpRequestClassification, sessionVersion: string | null, sent: BridgeRequestLookup): HttpRequestClassification | undefined {
  const { messages } = classification;
  let legacy = false;
  for (const message of messages) if (message.era === 'legacy') legacy = true;
  if (!legacy) return undefined;
  return {
    ...classification,
    messages: messages.map((message) => {
      const method = message.kind === 'response' && message.method === NON_RPC_METHOD.unknownResponse && message.id !== null ? (sent.inputRequestMethod(message.id) ?? message.method) : message.method;
      return classified({ ...message, method, era: 'legacy', reason: 'bridge', version: sessionVersion ?? message.version });
    }),
  };
}
