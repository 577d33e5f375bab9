import type { IncomingMessage } from 'node:http';
import { INTERNAL_ERROR } from '../protocol/error-codes.js';
import { HEADER } from '../protocol/versions.js';
import { rpcError } from '../protocol/rpc-error.js';
import type { BridgeAnswer } from './bridge-answer.js';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgedRequest } from './bridged-request.js';
import { NodeRelayFailed, relayToNode, type NodeRelay } from './relay-to-node.js';
import type { RelayKind } from './seal-node-relay.js';

export interface NodeRelaysOptions {
  ring: BridgeKeyRing;
  now: () => number;
  /** The path and query a request-target is served at, inside the public prefix; undefined elsewhere. */
  relayPathOf: (target: string) => string | undefined;
  /** A request this node will not relay, answered (and counted as a refused relay) by the bridge. */
  onRefused: (answer: BridgeAnswer, why: string) => void;
}

/**
 * Requests this node passes to the one node that can act on them, answered to the client as that
 * node answered. What goes where, and who counts it, is route-bridge-request.ts's; how a relay is
 * sealed and sent is relay-to-node.ts's.
 */
export class NodeRelays {
  constructor(private readonly options: NodeRelaysOptions) {}

  /**
   * A POST passed on. `path` is the one this node placed: the request's own inside the public prefix,
   * or one built from a channel token; never the target as the client sent it.
   */
  async passOn(req: IncomingMessage, answer: BridgeAnswer, kind: RelayKind, node: string, request: BridgedRequest, signal: AbortSignal, token: string | undefined, path = this.options.relayPathOf(req.url ?? '/')): Promise<void> {
    const passed = await this.send(answer, this.relayFor(kind, node, path, req, request, signal, token));
    if (passed === undefined) return;
    answer.raw(passed.status, passed.headers.get('content-type'), Buffer.from(await passed.arrayBuffer()));
  }

  /** A standalone stream opened on another node than the session's home: passed on from the home node as it comes. */
  async streamFrom(req: IncomingMessage, answer: BridgeAnswer, home: string, token: string, request: BridgedRequest, signal: AbortSignal): Promise<void> {
    const upstream = await this.send(answer, this.relayFor('listen', home, this.options.relayPathOf(req.url ?? '/'), req, request, signal, token));
    if (upstream === undefined) return;
    const type = upstream.headers.get('content-type');
    if (!(type ?? '').startsWith('text/event-stream') || upstream.body === null) {
      return answer.raw(upstream.status, type, Buffer.from(await upstream.arrayBuffer()));
    }
    answer.openStream();
    const decoder = new TextDecoder();
    for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) answer.rawChunk(decoder.decode(chunk, { stream: true }));
    answer.end();
  }

  /** Sends a relay, or answers the client why not; undefined once answered. */
  private async send(answer: BridgeAnswer, relay: NodeRelay | undefined): Promise<Response | undefined> {
    if (relay === undefined) {
      this.options.onRefused(answer, 'this request cannot be relayed from its path');
      return undefined;
    }
    try {
      return await relayToNode(this.options.ring, this.options.now(), relay);
    } catch (error) {
      if (!(error instanceof NodeRelayFailed)) throw error;
      answer.json(502, rpcError(null, INTERNAL_ERROR, `mcp-sunset bridge: ${error.message}`));
      return undefined;
    }
  }

  private relayFor(kind: RelayKind, node: string, path: string | undefined, req: IncomingMessage, request: BridgedRequest, signal: AbortSignal, token: string | undefined): NodeRelay | undefined {
    if (path === undefined) return undefined;
    const listen = kind === 'listen';
    return {
      kind, node, path, method: listen ? 'GET' : 'POST', body: listen ? undefined : request.body,
      clientHeaders: req.headers, token, sessionHeader: HEADER.sessionId, caller: request.caller ?? '', signal,
    };
  }
}
