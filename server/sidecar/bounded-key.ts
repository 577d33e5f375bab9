import { createHash } from 'node:crypto';
import type { JsonRpcId } from '../protocol/read-json-rpc.js';

/** Longest client-chosen string kept as it is in a table key; longer ones are kept as their digest. */
export const MAX_KEY_CHARS = 256;

const DIGEST_PREFIX = 'sha256:';

/** The text itself when short, else its SHA-256: the same input always gives the same key. */
export function boundedKey(text: string): string {
  if (text.length <= MAX_KEY_CHARS) return text;
  return DIGEST_PREFIX + createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * A JSON-RPC id as it may be held: numbers and short strings unchanged, a long string as its
 * digest. A request and its answer carry the same id, so both sides map to the same key.
 */
export function boundedId(id: JsonRpcId): JsonRpcId {
  return typeof id === 'string' ? boundedKey(id) : id;
}
