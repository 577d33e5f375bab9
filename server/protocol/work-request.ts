/**
 * What the share counts as work. Pure. How often a client negotiates depends on its era and its
 * habits, not on what it gets done: a legacy client sends `initialize` once per session, a modern
 * one sends `server/discover` once per connection or never. Counting negotiation would move the
 * curve with connection habits, so by default the share counts work requests only:
 * client requests that are neither negotiation nor plumbing.
 */
import { METHOD } from './method-names.js';
import type { MessageKind } from './vocabulary.js';

/** The handshakes: `initialize` opens a legacy session, `server/discover` asks a modern server what it speaks. */
export const NEGOTIATION_METHODS = [METHOD.initialize, METHOD.discover] as const;

/**
 * Keep-alive and session housekeeping: a `ping` and `logging/setLevel` are sent on a client's own
 * schedule and ask the server for no work.
 */
export const PLUMBING_METHODS = ['ping', 'logging/setLevel'] as const;

const NEGOTIATION: ReadonlySet<string> = new Set(NEGOTIATION_METHODS);
const PLUMBING: ReadonlySet<string> = new Set(PLUMBING_METHODS);

/**
 * How a client request is counted: `work` (what the share measures), `negotiation` (shown beside
 * the curve) or `plumbing` (counted in traffic, never in the share).
 */
export const REQUEST_CLASSES = ['work', 'negotiation', 'plumbing'] as const;
export type RequestClass = (typeof REQUEST_CLASSES)[number];

/**
 * Which requests a share counts: work requests (the default), or every request as before the
 * distinction existed, negotiation and plumbing included.
 */
export const SHARE_BASES = ['work-requests', 'all-requests'] as const;
export type ShareBasis = (typeof SHARE_BASES)[number];
export const DEFAULT_SHARE_BASIS: ShareBasis = 'work-requests';

/** True for the handshakes of either era. */
export function isNegotiation(method: string): boolean {
  return NEGOTIATION.has(method);
}

/**
 * The class of a client request, or null for anything that is not one. Notifications, stream opens
 * and closes and a client's responses are not requests the client asked the server to do: they
 * carry no work whatever their era.
 */
export function classifyRequest(kind: MessageKind, method: string): RequestClass | null {
  if (kind !== 'request') return null;
  if (isNegotiation(method)) return 'negotiation';
  if (PLUMBING.has(method)) return 'plumbing';
  return 'work';
}

/** A client request that is neither negotiation nor plumbing. */
export function isWorkRequest(kind: MessageKind, method: string): boolean {
  return classifyRequest(kind, method) === 'work';
}

/** Whether a request of this class counts toward a share on this basis. */
export function countsToward(basis: ShareBasis, requestClass: RequestClass): boolean {
  return basis === 'all-requests' || requestClass === 'work';
}
