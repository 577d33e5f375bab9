import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { IncomingMessage, request, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { pino } from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { meter, servedBy, type MeterMiddleware, type MeterOptions } from '../../server/express/index.js';
import { listTraffic } from '../../server/store/sqlite/list-traffic.js';
import type { TrafficDimension } from '../../server/store/records/traffic-series.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { eventsInBatch, readSpool } from '../../server/store/spool-file.js';
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
async function metered<T>(kind: AppKind, json: boolean, client: (peer: Peer) => Promise<T>, meterOptions: MeterOptions = {}, extra: Partial<MeteredAppOptions> = {}) {
  const bare = await startApp(kind, { json });
  const unmetered = await client(bare);
  const { metered: middleware, db } = newMeter(meterOptions);
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

const COUNT_CALL = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'count', arguments: { steps: 3, delayMs: 1 }, _meta: { progressToken: 'p1' } },
};

/** One raw POST, answered as the client sees it: status, content type and the body text. */
async function rawPost(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('what the client receives', () => {
  for (const json of [false, true]) {
    test(`a progress SSE stream from a stateless SDK v1 app is byte for byte the same with the middleware ${json ? 'after express.json()' : 'alone'}`, async () => {
      const run = await metered('v1-stateless', json, (peer) => rawPost(peer.url, COUNT_CALL, { 'mcp-protocol-version': '2025-11-25' }));
      expect(run.result.type).toBe('text/event-stream');
      expect(run.result.text).toContain('notifications/progress');
      expect(run.result).toEqual(run.unmetered);
      expect(run.count('method')).toEqual({ 'tools/call': 1 });
      expect(run.count('outcome')).toEqual({ served: 1 });
    });
  }

  test('a request refused before its body is read (no event-stream in Accept) gets the same refusal and is still classified from its body', async () => {
    const run = await metered('v1-stateless', false, (peer) => rawPost(peer.url, COUNT_CALL, { accept: 'application/json', 'mcp-protocol-version': '2025-11-25' }));
    expect(run.result.status).toBe(406);
    expect(run.result).toEqual(run.unmetered);
    expect(run.count('method')).toEqual({ 'tools/call': 1 });
    expect(run.count('reason')).toEqual({ 'legacy-version-header': 1 });
    expect(run.count('outcome')).toEqual({ 'client-error': 1 });
  });

  test('a body sent only after the refusal arrived is still read to its end and classified from its text', async () => {
    const body = JSON.stringify(COUNT_CALL);
    // The client holds the body back until it has the answer, so the handler surely answers first.
    const sendLate = (peer: Peer) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(peer.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25', 'content-length': Buffer.byteLength(body) },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => req.end(body, () => setImmediate(() => resolve({ status: res.statusCode ?? 0, text }))));
        });
        req.flushHeaders();
      });
    const run = await metered('v1-stateless', false, async (peer) => {
      const answer = await sendLate(peer);
      // The app must have had the chance to read the late body before the meter closes.
      await sleep(50);
      return answer;
    });
    expect(run.result.status).toBe(406);
    expect(run.result).toEqual(run.unmetered);
    expect(run.count('method')).toEqual({ 'tools/call': 1 });
    expect(run.count('outcome')).toEqual({ 'client-error': 1 });
  });

  test('a body that arrived while an earlier middleware waited reaches the handler whole, and is counted from its text', async () => {
    const { metered: middleware, db } = newMeter();
    const app = express();
    app.use(async (_req, _res, next) => {
      // Long enough for the body to sit in the request's buffer before the meter runs.
      await sleep(50);
      next();
    });
    app.use('/mcp', middleware);
    let received = '';
    app.post('/mcp', async (req, res) => {
      for await (const chunk of req) received += String(chunk);
      res.json({ jsonrpc: '2.0', id: 1, result: {} });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const { port } = server.address() as { port: number };
    const answer = await rawPost(new URL(`http://127.0.0.1:${port}/mcp`), body);
    expect(answer.status).toBe(200);
    expect(received).toBe(JSON.stringify(body));
    await middleware.close();
    expect(totals(db, 'method')).toEqual({ 'tools/list': 1 });
    expect(totals(db, 'reason')).toEqual({ 'assumed-2025-03-26': 1 });
  });

  test('a body past maxBodyBytes reaches the handler whole and is counted from the headers alone', async () => {
    const modernList = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, pad: 'x'.repeat(500) } },
    };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    const run = await metered('v2-dual', false, (peer) => rawPost(peer.url, modernList, headers), { maxBodyBytes: 64 });
    expect(run.result.status).toBe(200);
    expect(run.result).toEqual(run.unmetered);
    expect(run.count('reason')).toEqual({ 'body-too-large': 1 });
    expect(run.count('era')).toEqual({ modern: 1 });
  });
});

describe('servedBy', () => {
  test('the era the app declares wins over the classifier\'s, under its own reason', async () => {
    const { metered: middleware, db } = newMeter();
    const app = await startApp('v2-dual', { json: true, metered: middleware, beforeHandle: (_req, res) => servedBy(res, 'modern') });
    await runV1HttpSession(app.url);
    await app.close();
    await middleware.close();
    expect(totals(db, 'era')).toEqual({ modern: 6 });
    expect(totals(db, 'reason')).toEqual({ 'declared-by-app': 6 });
    // What the declaration does not speak to stays as observed.
    expect(totals(db, 'version')).toEqual({ '2025-11-25': 6 });
  });

  test('the middleware\'s own servedBy is the same declaration, and a response it does not meter is left alone', async () => {
    const { metered: middleware, db } = newMeter();
    const app = await startApp('v1-stateless', { json: true, metered: middleware, beforeHandle: (_req, res) => middleware.servedBy(res, 'legacy') });
    await rawPost(app.url, COUNT_CALL, { 'mcp-protocol-version': '2026-07-28' });
    await app.close();
    await middleware.close();
    expect(totals(db, 'era')).toEqual({ legacy: 1 });
    expect(totals(db, 'reason')).toEqual({ 'declared-by-app': 1 });
    expect(() => servedBy({}, 'modern')).not.toThrow();
  });

  test('an era that is not legacy or modern is refused by name', () => {
    expect(() => servedBy({}, 'unknown' as 'legacy')).toThrow(/era must be one of legacy, modern/);
  });
});

describe('options', () => {
  test('a bad option throws one error naming the field', () => {
    expect(() => meter({ db: ':memory:', node: 'n', maxBodyBytes: -1 })).toThrow(/^maxBodyBytes: /);
    expect(() => meter({ db: ':memory:', node: 'n', caps: { sessions: 0 } })).toThrow(/^caps\.sessions: /);
    expect(() => meter({ db: ':memory:', node: 'n', identity: { order: ['psychic'] } } as unknown as MeterOptions)).toThrow(/^identity\.order\.0: /);
  });

  test('a setting the middleware has no use for is named, not ignored', () => {
    expect(() => meter({ upstream: 'http://127.0.0.1:1/' } as MeterOptions)).toThrow(/^upstream: not a setting of the middleware/);
  });

  test('the middleware mounts with app.use as Express types it', () => {
    const app = express();
    const { metered: middleware } = newMeter();
    expect(() => app.use('/mcp', middleware)).not.toThrow();
  });
});

describe('opening the store', () => {
  test('a request that arrives before the store is open waits for it, then goes on to the handler', async () => {
    const { metered: middleware } = newMeter();
    // Straight after meter(): the store opens in the background and has not answered yet.
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    req.url = '/healthz';
    const res = new ServerResponse(req);
    let passed = false;
    const next = new Promise<unknown>((resolve) =>
      middleware(req as never, res as never, (error?: unknown) => {
        passed = true;
        resolve(error);
      }),
    );
    expect(passed).toBe(false);
    expect(await next).toBeUndefined();
    expect(passed).toBe(true);
  });
});

describe('close()', () => {
  test('with a store that cannot be opened, traffic is served as before and close() spools every count for the next start', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-express-'));
    folders.push(folder);
    // A folder where the database file should be: SQLite cannot open it.
    const db = join(folder, 'sunset.db');
    mkdirSync(db);
    const middleware = meter({ db, node: 'app-1', logger: pino({ level: 'silent' }) });
    const app = await startApp('v1-session', { json: false, metered: middleware });
    const summary = await runV1HttpSession(app.url, { terminate: true });
    expect(summary.sum).toBe('3');
    await app.close();
    const final = await middleware.close();
    expect(final).toEqual({ spooled: 7, lost: 0 });
    expect(readSpool(`${db}.spool`).reduce((sum, entry) => sum + eventsInBatch(entry.batch), 0)).toBe(7);
    // A second close answers the same, and writes nothing more.
    expect(await middleware.close()).toEqual(final);
  });

  test('an exchange still open at close() is counted as cancelled, and its answer still reaches the client; requests after close() pass unmetered', async () => {
    const { metered: middleware, db } = newMeter();
    const app = await startApp('v1-stateless', { json: true, metered: middleware });
    const slowCall = { ...COUNT_CALL, params: { ...COUNT_CALL.params, arguments: { steps: 2, delayMs: 200 } } };
    const response = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(slowCall),
    });
    // The stream's head is out: the call is under way.
    expect(response.status).toBe(200);
    await middleware.close();
    expect(await response.text()).toContain('counted 2');
    const after = await rawPost(app.url, COUNT_CALL, { 'mcp-protocol-version': '2025-11-25' });
    expect(after.text).toContain('counted 3');
    await app.close();
    expect(totals(db, 'method')).toEqual({ 'tools/call': 1 });
    expect(totals(db, 'outcome')).toEqual({ cancelled: 1 });
  });
});
