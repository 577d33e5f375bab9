import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport as V1StdioTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import { listTraffic } from '../../server/store/sqlite/list-traffic.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { textOf } from '../peers/clients.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';
import { planInput } from '../support/plan-input.js';

const TSX = ['--import', 'tsx'];
const BOUND = { timeout: 20_000, interval: 50 };
const CLI = join(PROJECT_ROOT, 'server', 'cli', 'main.ts');
const POLICY_URL = 'https://example.com/mcp/legacy-retirement';
const DAY_MS = 86_400_000;

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

/** The command a client runs instead of the server: wrap around the v2 dual-era stdio server, recording what reaches it. */
function wrapped(config: string, db: string, caller: string, stdinLog: string): StdioServerParameters {
  return {
    command: process.execPath,
    args: [...TSX, CLI, 'wrap', '--config', config, '--db', db, '--caller', caller, '--', process.execPath, ...TSX, join(PROJECT_ROOT, 'test', 'peers', 'v2-stdio-server.ts'), 'dual'],
    cwd: PROJECT_ROOT,
    env: { ...getDefaultEnvironment(), PEER_STDIN_LOG: stdinLog },
  };
}

/** A v1 stdio transport that lets the client speak only once the server behind the wrapper is up and reading. */
class ServerUpTransport extends V1StdioTransport {
  constructor(
    parameters: StdioServerParameters,
    private readonly stdinLog: string,
  ) {
    super(parameters);
  }
  override async start(): Promise<void> {
    await super.start();
    await expect.poll(() => existsSync(this.stdinLog), BOUND).toBe(true);
  }
}

function totals(db: string, groupBy: 'era' | 'method' | 'outcome' | 'integration', filters: Record<string, string> = {}) {
  const store = openDatabase(db);
  try {
    return listTraffic(store.db, { from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'hour', groupBy, filters }).totals;
  } finally {
    store.close();
  }
}

async function errorOf(run: () => Promise<unknown>): Promise<Error & { code?: unknown; data?: unknown }> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the client to fail');
}

describe('mcp-sunset wrap enforcing a retirement plan on real SDK peers over stdio', () => {
  let dir: string;
  let config: string;
  let runs = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-wrap-enforce-'));
    config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] } }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A fresh database holding the legacy era's plan, under deny and cut since yesterday, with `partner` exempt. */
  function storeWithPlan(): { db: string; stdinLog: () => string } {
    runs += 1;
    const db = join(dir, `run-${runs}.db`);
    const store = openDatabase(db);
    insertPlan(
      store.db,
      planInput({
        name: 'Retire the legacy era',
        announceDate: day(-60),
        retireDate: day(-1),
        policyUrl: POLICY_URL,
        exemptions: [{ integration: 'stdio:partner', until: day(30), note: 'migrating' }],
      }),
      Date.now(),
    );
    store.close();
    let logs = 0;
    return { db, stdinLog: () => join(dir, `run-${runs}-stdin-${(logs += 1)}.log`) };
  }

  test('a v1 client\'s initialize is refused with -32022 naming the versions still served and the policy, the server never receives it, and it is counted blocked once', async () => {
    const { db, stdinLog } = storeWithPlan();
    const log = stdinLog();
    const client = new V1Client({ name: 'wrap-test', version: '1' });
    const error = await errorOf(() => client.connect(new ServerUpTransport(wrapped(config, db, 'old-app', log), log)));
    expect(error.code).toBe(-32022);
    expect(error.message).toContain('Unsupported protocol version: 2025-11-25');
    expect(error.message).toContain('is retired on this server');
    expect(error.message).toContain('supported versions: 2026-07-28.');
    expect(error.message).toContain(POLICY_URL);
    expect(error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
    await client.close();
    // The server read its stdin to the end, and nothing was on it.
    await expect.poll(() => existsSync(`${log}.ended`), BOUND).toBe(true);
    expect(readFileSync(log, 'utf8')).toBe('');
    await expect.poll(() => totals(db, 'outcome'), BOUND).toEqual({ blocked: 1 });
    expect(totals(db, 'method')).toEqual({ initialize: 1 });
    expect(totals(db, 'integration')).toEqual({ 'stdio:old-app': 1 });
  });

  test('a pinned v2 client through the same wrap is modern and unaffected', async () => {
    const { db, stdinLog } = storeWithPlan();
    const client = new V2Client({ name: 'wrap-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new V2StdioTransport(wrapped(config, db, 'agent', stdinLog())));
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    await client.close();
    await expect.poll(() => totals(db, 'method'), BOUND).toEqual({ 'server/discover': 1, 'tools/call': 1 });
    expect(totals(db, 'outcome')).toEqual({ served: 2 });
    expect(totals(db, 'era')).toEqual({ modern: 2 });
  });

  test('an exempt caller (wrap --caller partner) passes: its legacy session reaches the server and is served', async () => {
    const { db, stdinLog } = storeWithPlan();
    const log = stdinLog();
    const client = new V1Client({ name: 'wrap-test', version: '1' });
    await client.connect(new ServerUpTransport(wrapped(config, db, 'partner', log), log));
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    await client.close();
    expect(readFileSync(log, 'utf8')).toContain('"method":"initialize"');
    await expect.poll(() => totals(db, 'method'), BOUND).toEqual({ initialize: 1, 'notifications/initialized': 1, 'tools/call': 1 });
    expect(totals(db, 'outcome')).toEqual({ served: 2, 'no-response': 1 });
    expect(totals(db, 'integration')).toEqual({ 'stdio:partner': 3 });
  });
});
