import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { pino } from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { meter, servedBy, type MeterMiddleware, type MeterOptions } from '../../server/express/index.js';
import { listTraffic, type TrafficDimension } from '../../server/store/list-traffic.js';
import { openDatabase } from '../../server/store/open-database.js';
import { runV1HttpSession, runV1SseSession, runV2Session, type SessionSummary } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startMeteredApp, type AppKind, type MeteredAppOptions } from './metered-apps.js';

const folders: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newMeter(options: MeterOptions = {}): { metered: MeterMiddleware; db: string } {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-express-'));
  folders.push(folder);
  const db = join(folder, 'sunset.db');
  const metered = meter({ db, node: 'app-1', logger: pino({ level: 'silent' }), ...options });
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await metered.close();
  });
  const close = metered.close;
  metered.close = () => {
    closed = true;
    return close();
  };
  return { metered, db };
}

async function startApp(kind: AppKind, options: MeteredAppOptions): Promise<Peer> {
  const peer = await startMeteredApp(kind, options);
  cleanups.push(() => peer.close());
  return peer;
}

/** Totals per group, read back from the SQLite file the middleware wrote. */
function totals(db: string, groupBy: TrafficDimension): Record<string, number> {
  const store = openDatabase(db);
  try {
    return listTraffic(store.db, { from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'minute', groupBy, filters: {} }).totals;
  } finally {
    store.close();
  }
}

/** Runs the same client against the app with and without the middleware; answers both summaries and the metered counts. */
async function metered<T>(kind: AppKind, json: boolean, client: (peer: Peer) => Promise<T>, extra: Partial<MeteredAppOptions> = {}) {
  const bare = await startApp(kind, { json });
  const unmetered = await client(bare);
  const { metered: middleware, db } = newMeter();
  const app = await startApp(kind, { json, metered: middleware, ...extra });
  const result = await client(app);
  await app.close();
  const final = await middleware.close();
  return { unmetered, result, final, count: (groupBy: TrafficDimension) => totals(db, groupBy) };
}

const V1_SESSION_METHODS = { initialize: 1, 'notifications/initialized': 1, GET: 1, 'tools/list': 1, 'tools/call': 2, DELETE: 1 };
const V1_STATELESS_METHODS = { initialize: 1, 'notifications/initialized': 1, GET: 1, 'tools/list': 1, 'tools/call': 2 };

for (const json of [false, true]) {
  describe(`the middleware ${json ? 'after express.json()' : 'with no body parser before it'}`, () => {
    test('an SDK v1 app with sessions serves a v1 client as before, and every message is counted once, as the proxy counts it', async () => {
      const run = await metered('v1-session', json, (peer) => runV1HttpSession(peer.url, { terminate: true }));
      expect(run.result).toEqual(run.unmetered);
      expect(run.result.sum).toBe('3');
      expect(run.final).toEqual({ spooled: 0, lost: 0 });
      expect(run.count('method')).toEqual(V1_SESSION_METHODS);
      expect(run.count('era')).toEqual({ legacy: 7 });
      expect(run.count('version')).toEqual({ '2025-11-25': 7 });
      expect(run.count('reason')).toEqual({ initialize: 2, 'get-stream': 1, 'session-header': 3, 'delete-session': 1 });
      expect(run.count('outcome')).toEqual({ served: 6, accepted: 1 });
      expect(run.count('node')).toEqual({ 'app-1': 7 });
    });

    test('a stateless SDK v1 app serves a v1 client as before; its refused GET is counted as a client error', async () => {
      const run = await metered('v1-stateless', json, (peer) => runV1HttpSession(peer.url, { terminate: true }));
      expect(run.result).toEqual(run.unmetered);
      expect(run.count('method')).toEqual(V1_STATELESS_METHODS);
      expect(run.count('era')).toEqual({ legacy: 6 });
      expect(run.count('outcome')).toEqual({ served: 4, accepted: 1, 'client-error': 1 });
    });

    test('an SDK v2 dual-era app serves modern and legacy clients as before, each counted in its era', async () => {
      const both = async (peer: Peer) => ({ modern: await runV2Session(peer.url, 'pin'), legacy: await runV1HttpSession(peer.url) });
      const run = await metered('v2-dual', json, both);
      expect(run.result).toEqual(run.unmetered);
      expect(run.result.modern.sum).toBe('3');
      expect(run.count('era')).toEqual({ modern: 4, legacy: 6 });
      expect(run.count('method')).toEqual({ 'server/discover': 1, initialize: 1, 'notifications/initialized': 1, GET: 1, 'tools/list': 2, 'tools/call': 4 });
      expect(run.count('version')).toEqual({ '2026-07-28': 4, '2025-11-25': 6 });
      expect(run.count('outcome')).toEqual({ served: 8, accepted: 1, 'client-error': 1 });
    });

    test('an SDK v1 HTTP+SSE app serves a v1 client as before; the stream open and every POSTed message are counted', async () => {
      const run = await metered<SessionSummary>('v1-sse', json, (peer) => runV1SseSession(peer.url));
      expect(run.result).toEqual(run.unmetered);
      expect(run.count('transport')).toEqual({ 'http+sse': 6 });
      expect(run.count('reason')).toEqual({ 'sse-open': 1, initialize: 2, 'sse-message': 3 });
      expect(run.count('outcome')).toEqual({ served: 5, accepted: 1 });
    });
  });
}
