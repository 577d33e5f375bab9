import { randomBytes } from 'node:crypto';
import { legacyNotificationOf, LIST_CHANGED_FILTER } from '../protocol/legacy-notification-of.js';
import type { BridgeAnswer } from './bridge-answer.js';
import type { BridgeSession } from './bridge-session.js';
import type { UpstreamAnswer } from './modern-poster.js';

/** Posts one modern request of a session to the server. */
type PostUpstream = (request: { id: string; method: string; params?: unknown }, session: BridgeSession, signal: AbortSignal) => Promise<UpstreamAnswer>;

/** A stream the legacy server's pushes go on, and the listen behind it now. */
interface PushStream {
  session: BridgeSession;
  answer: BridgeAnswer;
  closed: AbortSignal;
  current: AbortController | undefined;
  /** The newest listen not yet acknowledged, if any: a newer one replaces it, so unacknowledged listens never pile up. */
  pending: AbortController | undefined;
  /** The generation of the newest listen opened for the stream, and of the one in force: a later one always wins. */
  generation: number;
  currentGeneration: number;
  /** An HTTP+SSE channel's stream, which also carries answers: it outlives a listen, which is opened again. */
  channel: boolean;
}

/** Bounds on what a home node holds for resource subscriptions, whatever clients send. */
const MAX_SUBSCRIBED_SESSIONS = 10_000;
/** Standalone streams one node holds open, each with its listen: past it, a client is answered as by a server with none. */
export const MAX_PUSH_STREAMS = 10_000;
const MAX_URIS_PER_SESSION = 64;
const MAX_URI_CHARS = 2048;
/** How soon a channel's listen the server ended is opened again. */
const RELISTEN_AFTER_MS = 1_000;

export interface BridgeListens {
  /**
   * A session's standalone stream: the notifications of a modern `subscriptions/listen` for the list
   * changes and the resources the session subscribed to. A server that does not take the listen
   * leaves the client the 405 it would have had.
   */
  listen(answer: BridgeAnswer, session: BridgeSession, closed: AbortSignal): Promise<void>;
  /** An HTTP+SSE channel's stream, once its session is open: it carries the pushes too. */
  attachChannel(answer: BridgeAnswer, session: BridgeSession, closed: AbortSignal): void;
  /** Adds or drops a resource of a session's subscriptions; answers why not, when it cannot. */
  subscribe(session: BridgeSession, uri: string, on: boolean): string | undefined;
}

/**
 * The legacy server's pushes, from modern listens held on the clients' behalf, on the node that holds
 * their streams (a session's home node). A subscription change opens a listen with the new filter,
 * and the listen it replaces goes only once the server acknowledges the new one, so nothing falls
 * between them.
 */
export function createBridgeListens(post: PostUpstream, now: () => number): BridgeListens {
  // By session id: Maps, so no id (`__proto__`, say) finds anything but what was put there.
  const subscribed = new Map<string, { uris: Set<string>; expiresAt: number }>();
  const streams = new Map<string, PushStream[]>();
  let streamCount = 0;

  function filterOf(session: BridgeSession): Record<string, unknown> {
    const uris = subscribed.get(session.id)?.uris;
    return uris === undefined || uris.size === 0 ? LIST_CHANGED_FILTER : { ...LIST_CHANGED_FILTER, resourceSubscriptions: [...uris] };
  }

  /** Opens a listen with the session's filter now; a server that answers other than with a stream gets undefined. */
  async function open(stream: PushStream, mine: AbortController): Promise<{ id: string; upstream: UpstreamAnswer } | undefined> {
    const id = `mcp-sunset-bridge-listen-${randomBytes(9).toString('base64url')}`;
    const upstream = await post({ id, method: 'subscriptions/listen', params: { notifications: filterOf(stream.session) } }, stream.session, mine.signal);
    if (upstream.stream) return { id, upstream };
    for await (const _message of upstream.messages());
    return undefined;
  }

  function track(stream: PushStream): void {
    const open = streams.get(stream.session.id);
    if (open === undefined) streams.set(stream.session.id, [stream]);
    else open.push(stream);
    streamCount += 1;
    stream.closed.addEventListener('abort', () => forget(stream), { once: true });
  }

  /** A stream that ended, by the client or the server, takes no more subscription changes. */
  function forget(stream: PushStream): void {
    const open = streams.get(stream.session.id);
    if (open === undefined || !open.includes(stream)) return;
    open.splice(open.indexOf(stream), 1);
    streamCount -= 1;
    if (open.length === 0) streams.delete(stream.session.id);
  }

  /** Passes one listen's notifications to the stream while it is the stream's listen, or about to be. */
  async function pass(stream: PushStream, mine: AbortController, id: string, upstream: UpstreamAnswer, generation: number): Promise<void> {
    try {
      for await (const message of upstream.messages()) {
        if (message.id === id) break; // the listen's own end
        if (message.method === 'notifications/subscriptions/acknowledged') {
          // Acknowledged after a newer listen took over: this one's filter is stale, so it goes.
          if (generation < stream.currentGeneration) {
            mine.abort();
            break;
          }
          // The new filter is in force: the listen it replaces can go. Until now both ran, so nothing fell between them.
          const previous = stream.current;
          stream.current = mine;
          stream.currentGeneration = generation;
          if (stream.pending === mine) stream.pending = undefined;
          if (previous !== mine) previous?.abort();
          continue;
        }
        const legacy = legacyNotificationOf(message);
        if (legacy !== undefined && !stream.closed.aborted) stream.answer.event(legacy);
      }
    } catch {
      // Aborted: replaced by a newer listen, or the client went away.
    }
    if (stream.current !== mine || stream.closed.aborted) return;
    if (stream.channel) {
      // A channel's client does not open its stream again: the bridge opens the listen again instead.
      stream.current = undefined;
      return void setTimeout(() => stream.closed.aborted || relisten(stream), RELISTEN_AFTER_MS).unref();
    }
    // The server ended the listen the stream relied on: ending the stream makes the client open it again.
    forget(stream);
    stream.answer.end();
  }

  /** Opens a listen with the session's filter now, to replace the current one once the server acknowledges it. */
  function relisten(stream: PushStream): void {
    const generation = ++stream.generation;
    const mine = new AbortController();
    // A listen still waiting for its acknowledgement carries an older filter: it can only lose to this one.
    if (stream.pending !== undefined && stream.pending !== stream.current) stream.pending.abort();
    stream.pending = mine;
    const stop = () => mine.abort();
    stream.closed.addEventListener('abort', stop, { once: true });
    open(stream, mine)
      .then((opened) => opened && pass(stream, mine, opened.id, opened.upstream, generation))
      .catch(() => undefined)
      .finally(() => stream.closed.removeEventListener('abort', stop));
  }

  return {
    async listen(answer, session, closed) {
      if (streamCount >= MAX_PUSH_STREAMS) return answer.empty(405, ['Allow', 'POST']);
      const stream: PushStream = { session, answer, closed, current: undefined, pending: undefined, generation: 1, currentGeneration: 0, channel: false };
      const first = new AbortController();
      closed.addEventListener('abort', () => first.abort(), { once: true });
      const opened = await open(stream, first);
      if (opened === undefined) return answer.empty(405, ['Allow', 'POST']);
      // In force until a newer listen is acknowledged (one may already have been, while this one opened).
      if (stream.currentGeneration < 1) {
        stream.current = first;
        stream.currentGeneration = 1;
      }
      answer.openStream();
      track(stream);
      await pass(stream, first, opened.id, opened.upstream, 1);
    },
    attachChannel(answer, session, closed) {
      const stream: PushStream = { session, answer, closed, current: undefined, pending: undefined, generation: 0, currentGeneration: 0, channel: true };
      track(stream);
      relisten(stream);
    },
    subscribe(session, uri, on) {
      if (uri.length > MAX_URI_CHARS) return `a subscribed uri is at most ${MAX_URI_CHARS} characters`;
      let entry = subscribed.get(session.id);
      if (entry === undefined) {
        if (!on) return undefined;
        if (subscribed.size >= MAX_SUBSCRIBED_SESSIONS) {
          const at = now();
          for (const [id, held] of subscribed) if (held.expiresAt <= at) subscribed.delete(id);
          if (subscribed.size >= MAX_SUBSCRIBED_SESSIONS) return 'this node holds as many subscribed sessions as it may';
        }
        entry = { uris: new Set(), expiresAt: session.expiresAt };
        subscribed.set(session.id, entry);
      }
      if (on && !entry.uris.has(uri) && entry.uris.size >= MAX_URIS_PER_SESSION) return `a session subscribes to at most ${MAX_URIS_PER_SESSION} resources`;
      const changed = on ? !entry.uris.has(uri) : entry.uris.has(uri);
      if (on) entry.uris.add(uri);
      else entry.uris.delete(uri);
      if (changed) for (const stream of streams.get(session.id) ?? []) relisten(stream);
      return undefined;
    },
  };
}
