import type { IncomingHttpHeaders } from 'node:http';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import { endToEndHeaders } from './end-to-end-headers.js';
import { nodeRelayUrl } from './node-relay-url.js';
import { RELAY_HEADER, sealNodeRelay, type RelayKind } from './seal-node-relay.js';

/** A relay that did not reach the other node, or was answered with a redirect (never followed). */
export class NodeRelayFailed extends Error {}

export interface NodeRelay {
  kind: RelayKind;
  /** The node URL the fleet sealed. */
  node: string;
  /** Path and query, as this node placed it (see node-relay-url.ts). */
  path: string;
  method: 'GET' | 'POST';
  body: Buffer | undefined;
  /** The client's headers: its end-to-end ones go along, so the other node acts for the same client. */
  clientHeaders: IncomingHttpHeaders;
  /** The bridge session id the request carries, if any. */
  token: string | undefined;
  sessionHeader: string;
  /** The caller this node identified, for the node that counts it. */
  caller: string;
  signal: AbortSignal;
}

/**
 * Sends one request to another node of the fleet, sealed for exactly this method, path, body,
 * session and moment, with the client's end-to-end headers (its credential above all: the other
 * node opens credential-bound sessions, and the server authorises the client, not the bridge).
 * A redirect is a failure: following one would carry the credential and the seal wherever it points.
 */
export async function relayToNode(ring: BridgeKeyRing, now: number, relay: NodeRelay): Promise<Response> {
  const url = nodeRelayUrl(relay.node, relay.path);
  if (url === undefined) throw new NodeRelayFailed(`the node ${relay.node} cannot be relayed to at that path`);
  const target = url.pathname + url.search;
  const headers = new Headers();
  for (const [name, value] of endToEndHeaders(relay.clientHeaders, RELAY_HEADER)) {
    try {
      headers.append(name, value);
    } catch {
      // A value fetch will not send: Node's server took it, so it is the client's, and the node goes without it.
    }
  }
  headers.set('accept', relay.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream');
  if (relay.method === 'POST') headers.set('content-type', 'application/json');
  if (relay.token !== undefined) headers.set(relay.sessionHeader, relay.token);
  headers.set(RELAY_HEADER, sealNodeRelay(ring, { kind: relay.kind, method: relay.method, target, body: relay.body, token: relay.token, caller: relay.caller }, now));
  let answer: Response;
  try {
    answer = await fetch(url, { method: relay.method, headers, body: relay.body, redirect: 'manual', signal: relay.signal });
  } catch (error) {
    if (relay.signal.aborted) throw error;
    throw new NodeRelayFailed(`the node ${relay.node} could not be reached`);
  }
  if (answer.status >= 300 && answer.status < 400) {
    await answer.body?.cancel().catch(() => undefined);
    throw new NodeRelayFailed(`the node ${relay.node} answered with a redirect, which is not followed`);
  }
  return answer;
}
