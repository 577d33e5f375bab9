import { describe, expect, it } from 'vitest';
import type { BridgeAnswer } from '../../server/bridge/bridge-answer.js';
import { createBridgeListens } from '../../server/bridge/bridge-listens.js';
import type { BridgeSession } from '../../server/bridge/bridge-session.js';
import type { UpstreamAnswer, UpstreamMessage } from '../../server/bridge/modern-poster.js';

const NOW = Date.UTC(2026, 11, 7);
const session: BridgeSession = { id: 's1', version: '2025-11-25', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, issuedAt: NOW, expiresAt: NOW + 3_600_000 };

/**
 * A server that takes every listen and never acknowledges one: a stream that stays open until the
 * bridge lets it go. Real SDK servers acknowledge; this is the edge case they cannot produce.
 */
function silentServer() {
  const open = new Set<AbortSignal>();
  const post = async (_request: { id: string; method: string }, _session: BridgeSession, signal: AbortSignal): Promise<UpstreamAnswer> => {
    open.add(signal);
    signal.addEventListener('abort', () => open.delete(signal), { once: true });
    return {
      status: 200,
      stream: true,
      headers: {},
      async *messages(): AsyncGenerator<UpstreamMessage> {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        throw new Error('aborted');
      },
      bytes: async () => Buffer.alloc(0),
    };
  };
  return { open, post };
}

const quietAnswer = { openStream() {}, event() {}, empty() {}, end() {} } as unknown as BridgeAnswer;

describe('listens against a server that never acknowledges', () => {
  it('a hundred subscription changes leave at most the listen in force and the newest one waiting', async () => {
    const server = silentServer();
    const listens = createBridgeListens(server.post, () => NOW);
    const closed = new AbortController();
    void listens.listen(quietAnswer, session, closed.signal);
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 100; i += 1) {
      expect(listens.subscribe(session, `demo://r${i % 50}`, i < 50)).toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.open.size).toBeLessThanOrEqual(2);
    expect(server.open.size).toBeGreaterThan(0);
    closed.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.open.size).toBe(0);
  });

  it('a channel\'s pushes take the same bound', async () => {
    const server = silentServer();
    const listens = createBridgeListens(server.post, () => NOW);
    const closed = new AbortController();
    listens.attachChannel(quietAnswer, session, closed.signal);
    for (let i = 0; i < 40; i += 1) {
      listens.subscribe(session, `demo://r${i}`, true);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.open.size).toBeLessThanOrEqual(2);
    closed.abort();
  });
});
