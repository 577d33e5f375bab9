import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BridgeAnswer } from './bridge-answer.js';
import type { BridgeSession } from './bridge-session.js';

/** An HTTP+SSE channel this node holds: its stream, and the session its `initialize` opened. */
export interface Channel {
  id: string;
  stream: BridgeAnswer;
  session: BridgeSession | undefined;
  /** Aborted when the stream closes: everything forwarded for the channel stops with it. */
  closed: AbortSignal;
  /** Ends the stream (the session is gone): the client is told by its stream closing. */
  end(): void;
  /** Requests forwarded for it whose answer has not been written yet. */
  busy: number;
  /** A digest of the credential (`Authorization`) the stream was opened with, '' for none: every message must present the same. */
  credential: string;
}

function digestOf(credential: string | undefined): string {
  return credential === undefined ? '' : createHash('sha256').update(credential).digest('base64url');
}

/** True when a message presents the credential its channel's stream was opened with (or none, as it was). */
export function sameCredential(channel: Channel, credential: string | undefined): boolean {
  const given = Buffer.from(digestOf(credential));
  const bound = Buffer.from(channel.credential);
  return given.length === bound.length && timingSafeEqual(given, bound);
}

/** Bounds the channels one node holds open, whatever clients open: each holds a stream and its listen. */
export const MAX_OPEN_CHANNELS = 10_000;

/**
 * The HTTP+SSE channels whose streams this node holds, by id. The id is random and the table a Map,
 * so a channel token naming `__proto__` finds nothing.
 */
export class BridgeChannels {
  private readonly open = new Map<string, Channel>();

  /** A new channel for a stream just opened, or undefined when this node holds as many as it may. */
  add(stream: BridgeAnswer, closed: AbortSignal, end: () => void, credential: string | undefined): Channel | undefined {
    if (this.open.size >= MAX_OPEN_CHANNELS) return undefined;
    const id = randomBytes(16).toString('base64url');
    const channel: Channel = { id, stream, session: undefined, closed, end, busy: 0, credential: digestOf(credential) };
    this.open.set(id, channel);
    closed.addEventListener('abort', () => this.open.delete(id), { once: true });
    return channel;
  }

  get size(): number {
    return this.open.size;
  }

  get(id: string): Channel | undefined {
    return this.open.get(id);
  }
}
