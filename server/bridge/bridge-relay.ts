import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { BridgeKeyRing } from './bridge-key-ring.js';

/**
 * Answers to the bridge's input requests (an elicitation, say) may land on any node, but only the
 * node holding the request's event stream can use them. So the id the bridge gives an input
 * request names that node, under a MAC, and a node that receives an answer it is not waiting for
 * passes it to the named one, marked as relayed so it is counted once, where it first landed.
 */
export const RELAY_HEADER = 'mcp-sunset-bridge-relay';

const INPUT_ID_PREFIX = 'mcp-sunset-bridge';

function mac(ring: BridgeKeyRing, text: string): string {
  return macWith(ring.current.secret, text);
}

function macWith(secret: Buffer, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/**
 * True when `given` is the (cut) MAC of `text` under any key held: while a key is rotated node by
 * node, a node still sealing with the old key and one already on the new key must still trust
 * each other's ids and tokens.
 */
function madeByFleet(ring: BridgeKeyRing, text: string, given: string, length: number): boolean {
  for (const key of ring.all()) if (same(given, macWith(key.secret, text).slice(0, length))) return true;
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
export function readInputRequestId(ring: BridgeKeyRing, id: unknown): { node: string | undefined; method: string } | undefined {
  if (typeof id !== 'string' || id.length > 2048) return undefined;
  const parts = id.split('.');
  if (parts.length !== 5 || parts[0] !== INPUT_ID_PREFIX) return undefined;
  const [, where, what, nonce, given] = parts as [string, string, string, string, string];
  if (!madeByFleet(ring, `input.${where}.${what}.${nonce}`, given, 22)) return undefined;
  const node = Buffer.from(where, 'base64url').toString('utf8');
  return { node: node === '' ? undefined : node, method: Buffer.from(what, 'base64url').toString('utf8') };
}

/** The relay header's value for an answer of the session `token`. */
export function relayMac(ring: BridgeKeyRing, token: string): string {
  return mac(ring, `relay.${token}`);
}

/** True when the request is an answer another node of the fleet relayed here. */
export function isRelayed(ring: BridgeKeyRing, headers: IncomingHttpHeaders, sessionHeader: string): boolean {
  const given = headers[RELAY_HEADER];
  const token = headers[sessionHeader];
  return typeof given === 'string' && typeof token === 'string' && madeByFleet(ring, `relay.${token}`, given, Number.MAX_SAFE_INTEGER);
}

const CHANNEL_PREFIX = 'mcs1';

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
export function readChannelToken(ring: BridgeKeyRing, token: string | null): { node: string; channelId: string } | undefined {
  if (token === null || token.length > 2048) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== CHANNEL_PREFIX) return undefined;
  const [, where, channelId, given] = parts as [string, string, string, string];
  if (!madeByFleet(ring, `channel.${where}.${channelId}`, given, 22)) return undefined;
  return { node: Buffer.from(where, 'base64url').toString('utf8'), channelId };
}
