import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import { BRIDGE_RELAY_HEADER } from '../lib/bridge-relay-header.js';
import { keysInForce } from './keys-in-force.js';

/** The header a relay between bridge nodes carries: who sent what, where, when, under the fleet's key. */
export const RELAY_HEADER = BRIDGE_RELAY_HEADER;

/**
 * What a relay between nodes is for, and the only things it is accepted for:
 * - `answer`: a client's answer to an input request, sent to the node that waits for it;
 * - `subscribe`: a resource subscription change, sent to the session's home node, where its listens are;
 * - `listen`: a session's standalone stream, opened on its home node and passed back as it comes;
 * - `channel`: an HTTP+SSE message, sent to the node holding the channel's stream, which gates and counts it.
 */
export type RelayKind = 'answer' | 'subscribe' | 'listen' | 'channel';

const KINDS: ReadonlySet<string> = new Set<RelayKind>(['answer', 'subscribe', 'listen', 'channel']);

/**
 * How far a relay's time may be from the receiving node's clock. A relay is sent the moment it is
 * sealed, so this only has to cover the trip and the nodes' clock skew; it also bounds how long a
 * relay could be replayed, and how long the receiving node remembers it to refuse a replay.
 */
export const RELAY_WINDOW_MS = 30_000;

const PREFIX = 'r2';
const MAX_HEADER_CHARS = 1024;
const MAX_CALLER_CHARS = 512;

/** One relay as sealed and as checked: the request exactly as it goes between the nodes. */
export interface RelayFacts {
  kind: RelayKind;
  /** The HTTP method. */
  method: string;
  /** The request-target sent: path and query, as the relay URL builder made it. */
  target: string;
  body: Buffer | undefined;
  /** The bridge session id the request carries, if any. */
  token: string | undefined;
  /** The caller the sending node identified, opaque here: the receiving node counts under it. */
  caller: string;
}

export type RelayVerdict =
  | { relayed: false; /** Set when a relay header came and was not accepted, for the logs. */ refused?: string }
  | { relayed: true; kind: RelayKind; caller: string };

function digest(body: Buffer | undefined): string {
  return createHash('sha256').update(body ?? Buffer.alloc(0)).digest('base64url');
}

function macText(facts: RelayFacts, at: number, callerText: string): string {
  return [PREFIX, facts.kind, facts.method, facts.target, digest(facts.body), String(at), facts.token ?? '', callerText].join('\n');
}

function macWith(secret: Buffer, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/** The relay header's value for a request about to be sent to another node, at `at` (epoch ms). */
export function sealNodeRelay(ring: BridgeKeyRing, facts: RelayFacts, at: number): string {
  const callerText = Buffer.from(facts.caller.slice(0, MAX_CALLER_CHARS)).toString('base64url');
  return `${PREFIX}.${facts.kind}.${Math.floor(at)}.${callerText}.${macWith(ring.current.secret, macText(facts, Math.floor(at), callerText))}`;
}

/**
 * Whether a request is a relay another node of the fleet sent: its header's MAC, under a key still in
 * force, covers this very method, target, body and session, at a time within the window of `now`.
 * Everything else a client could send is `relayed: false`. Never throws.
 */
export function openNodeRelay(ring: BridgeKeyRing, header: string | string[] | undefined, request: Omit<RelayFacts, 'kind' | 'caller'>, now: number): RelayVerdict {
  if (header === undefined) return { relayed: false };
  if (typeof header !== 'string' || header.length > MAX_HEADER_CHARS) return { relayed: false, refused: 'malformed' };
  const parts = header.split('.');
  if (parts.length !== 5 || parts[0] !== PREFIX || !KINDS.has(parts[1]!)) return { relayed: false, refused: 'malformed' };
  const [, kind, atText, callerText, given] = parts as [string, RelayKind, string, string, string];
  if (!/^\d{1,15}$/.test(atText)) return { relayed: false, refused: 'malformed' };
  const at = Number(atText);
  if (Math.abs(now - at) > RELAY_WINDOW_MS) return { relayed: false, refused: 'outside its time window' };
  const text = macText({ ...request, kind, caller: '' }, at, callerText);
  const presented = Buffer.from(given);
  for (const key of keysInForce(ring, now)) {
    const expected = Buffer.from(macWith(key.secret, text));
    if (expected.length === presented.length && timingSafeEqual(expected, presented)) {
      return { relayed: true, kind, caller: Buffer.from(callerText, 'base64url').toString('utf8') };
    }
  }
  return { relayed: false, refused: 'not sealed for this request under a key in force' };
}
