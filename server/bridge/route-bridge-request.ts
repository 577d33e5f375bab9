import type { RelayKind } from './seal-node-relay.js';

/**
 * What a bridged request is, as far as where it is handled goes. `node` is always a node URL read
 * from something this fleet sealed (a channel token, an input request id, a session id), '' or
 * undefined when it named none.
 */
export type BridgeTarget =
  /** A POST to an HTTP+SSE message endpoint, for the channel whose stream `holder` holds. */
  | { kind: 'channel-message'; holder: string }
  /** A session's standalone GET stream; its listens live on the session's home node. */
  | { kind: 'listen'; home: string | undefined }
  /** A resource subscription change; the subscriptions live on the session's home node. */
  | { kind: 'subscribe'; home: string | undefined }
  /** A client's answer to an input request; `waiting` when this node waits for it, `asker` the node that sent it. */
  | { kind: 'answer'; waiting: boolean; asker: string | undefined }
  /** Anything else: this node answers it itself. */
  | { kind: 'other' }
  /** Not known yet: the proxy asks before the bridge reads the body; what it asks (gating and counting) does not depend on it. */
  | { kind: 'unread' };

export interface BridgeRequestFacts {
  /** This node's URL, '' when it has none. */
  self: string;
  /** The kind of relay the request verifiably is, or undefined for a client's own request. */
  relayed: RelayKind | undefined;
  target: BridgeTarget;
}

export type BridgeAnswerRoute =
  | { by: 'here' }
  | { by: 'relay'; kind: RelayKind; to: string }
  | { by: 'refuse'; why: string };

/**
 * Who gates a request, who counts it, and who answers it. Every request is gated and counted
 * exactly once, on one node:
 * - where it landed, when it is relayed on only to be answered elsewhere (an answer, a
 *   subscription, a listen): the receiving node neither gates nor counts it again;
 * - on the node holding the channel, for an HTTP+SSE message, because its answer is written to
 *   that channel's stream: the node it landed on passes it on ungated and uncounted, with the
 *   caller it identified.
 * A relay is taken only for what it is for, and only once: a relay that would be relayed again is
 * refused.
 */
export interface BridgeRoute {
  /** The plan decides here (false: on the node it is relayed to, or where it landed). */
  gates: boolean;
  /** Counted here. Always equal to `gates`: a request is decided where it is counted. */
  counts: boolean;
  answer: BridgeAnswerRoute;
}

const TARGET_OF: Readonly<Record<RelayKind, BridgeTarget['kind']>> = {
  answer: 'answer',
  subscribe: 'subscribe',
  listen: 'listen',
  channel: 'channel-message',
};

function elsewhere(node: string | undefined, self: string): node is string {
  return node !== undefined && node !== '' && node !== self;
}

/** Where a target would be answered if it were a client's own request: here, or relayed to the node that can. */
function answerOf(target: BridgeTarget, self: string): BridgeAnswerRoute {
  switch (target.kind) {
    case 'channel-message':
      return elsewhere(target.holder, self) ? { by: 'relay', kind: 'channel', to: target.holder } : { by: 'here' };
    case 'listen':
      return elsewhere(target.home, self) ? { by: 'relay', kind: 'listen', to: target.home } : { by: 'here' };
    case 'subscribe':
      return elsewhere(target.home, self) ? { by: 'relay', kind: 'subscribe', to: target.home } : { by: 'here' };
    case 'answer':
      return !target.waiting && elsewhere(target.asker, self) ? { by: 'relay', kind: 'answer', to: target.asker } : { by: 'here' };
    case 'other':
    case 'unread':
      return { by: 'here' };
  }
}

/** Pure: the same facts always route the same way, on the proxy's side (before the body is read) and the bridge's. */
export function routeBridgeRequest(facts: BridgeRequestFacts): BridgeRoute {
  const { relayed, target, self } = facts;
  if (relayed === undefined) {
    const answer = answerOf(target, self);
    // An HTTP+SSE message is gated and counted where its answer is written: on the node holding the channel.
    const here = !(answer.by === 'relay' && answer.kind === 'channel');
    return { gates: here, counts: here, answer };
  }
  // A relayed channel message is this node's to gate and count; every other relay was, where it landed.
  const here = relayed === 'channel';
  if (target.kind !== 'unread' && target.kind !== TARGET_OF[relayed]) {
    return { gates: here, counts: here, answer: { by: 'refuse', why: `a ${relayed} relay cannot carry a ${target.kind}` } };
  }
  const onward = answerOf(target, self);
  if (onward.by === 'relay') return { gates: here, counts: here, answer: { by: 'refuse', why: 'a relayed request is not relayed again' } };
  return { gates: here, counts: here, answer: onward };
}
