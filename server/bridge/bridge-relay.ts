import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import { keysInForce } from './keys-in-force.js';
import { BRIDGE_CHANNEL_PREFIX } from '../protocol/read-bridge-token-claims.js';

/**
 * Answers to the bridge's input requests (an elicitation, say) may land on any node, but only the
 * node holding the request's event stream can use them. So the id the bridge gives an input
 * request names that node, under a MAC, and a node that receives an answer it is not waiting for
 * passes it to the named one (see seal-node-relay.ts). HTTP+SSE channel tokens name the node
 * holding the channel's stream the same way.
 */

const INPUT_ID_PREFIX = 'mcp-sunset-bridge';

function mac(ring: BridgeKeyRing, text: string): string {
  return macWith(ring.current.secret, text);
}

function macWith(secret: Buffer, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/**
 * True when `given` is the (cut) MAC of `text` under a key in force at `now`: while a key is rotated
 * node by node, a node still sealing with the old key and one already on the new key must still
 * trust each other's ids and tokens, until the old key's grace period ends.
 */
function madeByFleet(ring: BridgeKeyRing, text: string, given: string, length: number, now: number): boolean {
  for (const key of keysInForce(ring, now)) if (same(given, macWith(key.secret, text).slice(0, length))) return true;
  return false;
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A fresh id for an input request, naming the node (its URL, or '' when it has none) that waits for
 * the answer, and the request's method, so whichever node the answer lands on counts it under it.
 */
export function inputRequestId(ring: BridgeKeyRing, node: string, method: string): string {
  const where = Buffer.from(node).toString('base64url');
  const what = Buffer.from(method).toString('base64url');
  const nonce = randomBytes(12).toString('base64url');
  return `${INPUT_ID_PREFIX}.${where}.${what}.${nonce}.${mac(ring, `input.${where}.${what}.${nonce}`).slice(0, 22)}`;
}

/** The node and method an input request id names, when the id is one this fleet's key made; never throws. */
export function readInputRequestId(ring: BridgeKeyRing, id: unknown, now: number): { node: string | undefined; method: string } | undefined {
  if (typeof id !== 'string' || id.length > 2048) return undefined;
  const parts = id.split('.');
  if (parts.length !== 5 || parts[0] !== INPUT_ID_PREFIX) return undefined;
  const [, where, what, nonce, given] = parts as [string, string, string, string, string];
  if (!madeByFleet(ring, `input.${where}.${what}.${nonce}`, given, 22, now)) return undefined;
  const node = Buffer.from(where, 'base64url').toString('utf8');
  return { node: node === '' ? undefined : node, method: Buffer.from(what, 'base64url').toString('utf8') };
}

const CHANNEL_PREFIX = BRIDGE_CHANNEL_PREFIX;

/**
 * The token naming an HTTP+SSE channel in the message endpoint the bridge gives the client: the
 * channel's id and the node holding its stream, under a MAC. A POST that lands elsewhere is passed
 * to that node, where the stream is.
 */
export function channelToken(ring: BridgeKeyRing, node: string, channelId: string): string {
  const where = Buffer.from(node).toString('base64url');
  return `${CHANNEL_PREFIX}.${where}.${channelId}.${mac(ring, `channel.${where}.${channelId}`).slice(0, 22)}`;
}

/** The channel a token names and its node ('' when it named none), when this fleet's key made it; never throws. */
export function readChannelToken(ring: BridgeKeyRing, token: string | null, now: number): { node: string; channelId: string } | undefined {
  if (token === null || token.length > 2048) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== CHANNEL_PREFIX) return undefined;
  const [, where, channelId, given] = parts as [string, string, string, string];
  if (!madeByFleet(ring, `channel.${where}.${channelId}`, given, 22, now)) return undefined;
  return { node: Buffer.from(where, 'base64url').toString('utf8'), channelId };
}
