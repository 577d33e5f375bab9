import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createLegacyStdioBridge, type LegacyStdioBridge } from '../../server/bridge/legacy-stdio-bridge.js';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR } from '../../server/protocol/error-codes.js';
import { FIRST_MODERN_VERSION, META_PROTOCOL_VERSION } from '../../server/protocol/versions.js';
import { LineSplitter } from '../../server/lib/line-splitter.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

type Message = Record<string, any>;

const CLIENT = { name: 'raw-legacy-client', version: '1' };
const initialize = (id: number | string, protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = { elicitation: {} }) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: CLIENT },
});
const call = (id: number | string, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** A queue of parsed lines that a test can wait on, in order. */
class Lines {
  readonly all: Message[] = [];
  private read = 0;
  private wake: (() => void) | undefined;

  push(message: Message): void {
    this.all.push(message);
    this.wake?.();
  }

  async next(timeoutMs = 20_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.all.length) {
      if (Date.now() > deadline) throw new Error(`no line within ${timeoutMs} ms; had ${JSON.stringify(this.all)}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return this.all[this.read++]!;
  }
}

interface Harness {
  bridge: LegacyStdioBridge;
  child: ChildProcessWithoutNullStreams;
  /** What the bridge wrote to the client, and what the server wrote that was not the bridge's. */
  client: Lines;
  passed: Lines;
  /** What the bridge wrote to the server. */
  server: Message[];
  send(message: unknown): void;
}

let running: Harness | undefined;

/** The bridge between a raw legacy client (the test) and the real modern-only v2 stdio server. */
function open(inputTimeoutMs = 20_000): Harness {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'peers', 'v2-stdio-server.ts'), 'modern', 'bridge'], { cwd: PROJECT_ROOT });
  const client = new Lines();
  const passed = new Lines();
  const server: Message[] = [];
  const bridge = createLegacyStdioBridge(
    {
      toClient: (line) => client.push(JSON.parse(line) as Message),
      toServer: (line) => {
        server.push(JSON.parse(line) as Message);
        child.stdin.write(`${line}\n`);
      },
    },
    { inputTimeoutMs, onError: (error) => { throw error; } },
  );
  const lines = new LineSplitter(1 << 20, (line) => {
    if (line !== undefined && !bridge.serverLine(line)) passed.push(JSON.parse(line) as Message);
  });
  child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
  running = { bridge, child, client, passed, server, send: (message) => bridge.clientLine(JSON.stringify(message)) };
  return running;
}

async function initialized(harness: Harness, ...args: Parameters<typeof initialize>): Promise<Message> {
  harness.send(initialize(...args));
  const answer = await harness.client.next();
  harness.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return answer;
}

afterEach(() => {
  running?.bridge.close();
  running?.child.kill();
  running = undefined;
});

describe('createLegacyStdioBridge in front of the real modern-only v2 stdio server', () => {
  test('initialize is answered from server/discover at the version the client asked for; ping, setLevel and notifications stay at the edge', async () => {
    const h = open();
    h.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    expect(await h.client.next()).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    expect(h.server).toEqual([]);
    const answer = await initialized(h, 0, '2025-06-18');
    expect(answer).toMatchObject({ id: 0, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'v2-stdio-modern-peer' }, capabilities: { tools: {} } } });
    h.send({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } });
    expect(await h.client.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    // The handshake asks the server for its discovery, then listens for the legacy server's pushes; nothing else reached it.
    expect(h.server.map((m) => m.method)).toEqual(['server/discover', 'subscriptions/listen']);
    expect(h.server[1]!.params.notifications).toEqual({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    expect(h.server[0]!.params._meta[META_PROTOCOL_VERSION]).toBe(FIRST_MODERN_VERSION);
    expect(h.server[0]!.params._meta['io.modelcontextprotocol/clientInfo']).toEqual(CLIENT);
  });

  test('a request is made self-contained under an id of the bridge\'s own, and answered in the legacy shape under the client\'s id, whatever that id looks like', async () => {
    const h = open();
    await initialized(h, 0);
    // An id shaped like the bridge's cannot be taken for one: the bridge's carry a random part.
    h.send(call('mcp-sunset-bridge-2', 'add', { a: 1, b: 2 }));
    const answer = await h.client.next();
    expect(answer).toEqual({ jsonrpc: '2.0', id: 'mcp-sunset-bridge-2', result: { content: [{ type: 'text', text: '3' }] } });
    const sent = h.server.find((m) => m.method === 'tools/call')!;
    expect(sent.id).not.toBe('mcp-sunset-bridge-2');
    expect(sent.id).toMatch(/^mcp-sunset-bridge-/);
    expect(sent.params._meta).toMatchObject({ [META_PROTOCOL_VERSION]: FIRST_MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
    expect(h.passed.all).toEqual([]);
  });

  test('what cannot be mapped is answered with a JSON-RPC error: a request before initialize, a batch, a line that is not JSON, one too long to read', async () => {
    const h = open();
    h.send(call(1, 'add', { a: 1, b: 2 }));
    expect(await h.client.next()).toMatchObject({ id: 1, error: { code: INVALID_REQUEST, message: expect.stringContaining('send initialize first') } });
    h.send([call(2, 'add', { a: 1, b: 2 }), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(3, 'echo', { text: 'x' })]);
    const batch = await h.client.next();
    expect(Array.isArray(batch)).toBe(true);
    expect((batch as unknown as Message[]).map((m) => [m.id, m.error.code])).toEqual([[2, INVALID_REQUEST], [3, INVALID_REQUEST]]);
    h.bridge.clientLine('{not json');
    expect(await h.client.next()).toMatchObject({ id: null, error: { code: PARSE_ERROR } });
    h.bridge.tooLong(1024);
    expect(await h.client.next()).toMatchObject({ id: null, error: { code: INVALID_REQUEST, message: expect.stringContaining('1024 bytes') } });
    expect(h.server).toEqual([]);
  });

  test('input_required becomes an elicitation to the client under a bridge id; its answer becomes the retry under a new id', async () => {
    const h = open();
    await initialized(h, 0);
    h.send(call(7, 'confirm', { action: 'ship' }));
    const asked = await h.client.next();
    expect(asked).toMatchObject({ method: 'elicitation/create', params: { message: 'Really ship?' } });
    expect(String(asked.id)).toMatch(/^mcp-sunset-bridge-/);
    h.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: false } } });
    expect(await h.client.next()).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ship: declined' }] } });
    const calls = h.server.filter((m) => m.method === 'tools/call');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(calls[1]!.params.inputResponses).toEqual({ confirm: { action: 'accept', content: { confirm: false } } });
  });

  test('an elicitation a client of 2025-03-26 cannot receive fails the request with an error naming why', async () => {
    const h = open();
    await initialized(h, 0, '2025-03-26');
    h.send(call(7, 'confirm', { action: 'ship' }));
    expect(await h.client.next()).toMatchObject({ id: 7, error: { code: INTERNAL_ERROR, message: expect.stringContaining('elicitation/create') } });
  });

  test('a client that answers the elicitation with an error fails the request with that error\'s message', async () => {
    const h = open();
    await initialized(h, 0);
    h.send(call(7, 'confirm', { action: 'ship' }));
    const asked = await h.client.next();
    h.send({ jsonrpc: '2.0', id: asked.id, error: { code: -1, message: 'user closed the dialog' } });
    expect(await h.client.next()).toMatchObject({ id: 7, error: { code: INTERNAL_ERROR, message: expect.stringContaining('user closed the dialog') } });
  });

  test('a client that never answers: the bridge cancels its elicitation and fails the request when its wait ends', async () => {
    const h = open(300);
    await initialized(h, 0);
    h.send(call(7, 'confirm', { action: 'ship' }));
    const asked = await h.client.next();
    expect(await h.client.next()).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: asked.id, reason: expect.stringContaining('within 300 ms') } });
    expect(await h.client.next()).toMatchObject({ id: 7, error: { code: INTERNAL_ERROR, message: expect.stringContaining('did not answer elicitation/create') } });
  });

  test('a cancel names the bridge\'s id to the server as the modern stdio cancel, and the request is never answered', async () => {
    const h = open();
    await initialized(h, 0);
    h.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'count', arguments: { steps: 50, delayMs: 50 }, _meta: { progressToken: 'tok' } } });
    const progress = await h.passed.next();
    expect(progress).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'tok', progress: 1 } });
    h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'enough' } });
    const sent = h.server.find((m) => m.method === 'tools/call')!;
    expect(h.server.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: sent.id, reason: 'enough' } });
    h.send(call(10, 'add', { a: 2, b: 2 }));
    expect(await h.client.next()).toMatchObject({ id: 10, result: { content: [{ text: '4' }] } });
    expect(h.client.all.some((m) => m.id === 9)).toBe(false);
  });

  test('a cancel while the bridge waits on the client cancels the elicitation too, and nothing is retried', async () => {
    const h = open();
    await initialized(h, 0);
    h.send(call(7, 'confirm', { action: 'ship' }));
    const asked = await h.client.next();
    h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(await h.client.next()).toMatchObject({ method: 'notifications/cancelled', params: { requestId: asked.id } });
    // A late answer is the bridge's to drop: it asked, so it alone knows the id.
    h.send({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: true } } });
    h.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    expect(await h.client.next()).toMatchObject({ id: 'p' });
    expect(h.server.filter((m) => m.method === 'tools/call')).toHaveLength(1);
    expect(h.client.all.some((m) => m.id === 7)).toBe(false);
  });

  test('a cancel or an answer the bridge cannot place goes to the server unchanged', async () => {
    const h = open();
    await initialized(h, 0);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'not-ours' } };
    const answer = { jsonrpc: '2.0', id: 'asked-by-the-server', result: {} };
    h.send(cancel);
    h.send(answer);
    expect(h.server.slice(-2)).toEqual([cancel, answer]);
  });
});
