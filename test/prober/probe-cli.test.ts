import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli } from '../support/spawn-cli.js';
import { DISCOVER_RESULT, INITIALIZE_RESULT, rpc, startFakeHttpServer, TOOLS, type FakeServer } from './fakes/fake-http-server.js';

const VERDICT_KEYS = ['at', 'enableWith', 'era', 'evidence', 'latencyMs', 'peer', 'retryAfterMs', 'sent', 'serverInfo', 'state', 'supportedVersions', 'target', 'transport', 'version'];
const FAST = ['--attempts', '1', '--probe-timeout-ms', '5000', '--initialize-timeout-ms', '5000'];

async function run(args: string[]) {
  const cli = spawnCli(['probe', ...args]);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr(), lines: cli.stdout().split('\n').filter((l) => l !== '') };
}

describe('mcp-sunset probe', () => {
  let modern: FakeServer;
  let legacy: FakeServer;
  let notMcp: FakeServer;
  let busy: FakeServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-probe-cli-'));
    modern = await startFakeHttpServer((r) => ({ status: 200, json: rpc.result(r, r.body?.method === 'server/discover' ? DISCOVER_RESULT() : TOOLS('echo', 'search')) }));
    legacy = await startFakeHttpServer((r) => {
      if (r.body?.method === 'server/discover') return { status: 400, json: rpc.error(null, -32000, 'Bad Request: No valid session ID provided') };
      if (r.body?.method === 'initialize') return { status: 200, json: rpc.result(r, INITIALIZE_RESULT()) };
      if (r.body?.method === 'tools/list') return { status: 200, json: rpc.result(r, TOOLS('echo', 'add')) };
      return { status: 202 };
    });
    notMcp = await startFakeHttpServer(() => ({ status: 404, text: 'Not Found' }));
    busy = await startFakeHttpServer(() => ({ status: 503, headers: { 'retry-after': '30' } }));
  });
  afterAll(async () => {
    await Promise.all([modern, legacy, notMcp, busy].map((s) => s?.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('--json prints one verdict object per target, one per line, in the order given', async () => {
    const { code, lines, stderr } = await run(['--json', ...FAST, `new=${modern.url.href}`, `old=${legacy.url.href}`]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(Object.keys(first).sort()).toEqual(VERDICT_KEYS);
    expect(first).toMatchObject({ peer: 'new', target: modern.url.href, era: 'modern', state: 'ready', version: '2026-07-28', transport: 'streamable-http', enableWith: null });
    expect(second).toMatchObject({ peer: 'old', era: 'legacy', state: 'ready', version: '2025-11-25', evidence: { class: 'LEGACY', code: 'initialize-validated' } });
    expect(second.sent).toEqual([
      { method: 'server/discover', id: 'mcp-sunset-discover-1' },
      { method: 'initialize', id: 1 },
      { method: 'notifications/initialized', id: null },
      { method: 'tools/list', id: 2 },
    ]);
  });

  test('--tools adds each peer\'s part of the merged catalogue; colliding tools are prefixed by default', async () => {
    const { code, lines } = await run(['--json', '--tools', ...FAST, `new=${modern.url.href}`, `old=${legacy.url.href}`]);
    expect(code).toBe(0);
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(Object.keys(first).sort()).toEqual([...VERDICT_KEYS, 'tools', 'toolsError', 'toolsTruncated'].sort());
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual(['new/echo', 'search']);
    expect(second.tools).toEqual([
      { name: 'add', tool: 'add', description: 'the add tool' },
      { name: 'old/echo', tool: 'echo', description: 'the echo tool' },
    ]);
    expect([first.toolsError, second.toolsError]).toEqual([null, null]);
  });

  test('--collision reject names both peers and the tool, and exits 1', async () => {
    const { code, lines } = await run(['--json', '--tools', '--collision', 'reject', ...FAST, `new=${modern.url.href}`, `old=${legacy.url.href}`]);
    expect(code).toBe(1);
    const [first] = lines.map((l) => JSON.parse(l));
    expect(first.tools).toBeNull();
    expect(first.toolsError).toBe('tool "echo" is offered by both peer "new" and peer "old" (collision policy "reject")');
  });

  test('a target that is not ready exits 1 and says which setting would enable it', async () => {
    const strict = await run(['--json', ...FAST, `odd=${notMcp.url.href}`]);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.lines[0]!)).toMatchObject({ state: 'incompatible', enableWith: 'allowLegacy', evidence: { class: 'AMB', code: 'not-found' } });
    const offEvidence = await run(['--json', '--no-legacy-on-evidence', ...FAST, legacy.url.href]);
    expect(offEvidence.code).toBe(1);
    expect(JSON.parse(offEvidence.lines[0]!)).toMatchObject({ peer: '127.0.0.1:' + legacy.url.port, state: 'incompatible', enableWith: 'legacyOnEvidence' });
  });

  test('without --json, a readable table and the evidence behind each verdict', async () => {
    const { code, stdout } = await run([...FAST, '--tools', `new=${modern.url.href}`, `odd=${notMcp.url.href}`]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^peer\s+transport\s+era\s+state\s+version\s+evidence\s+enable with$/m);
    expect(stdout).toMatch(/^new\s+streamable-http\s+modern\s+ready\s+2026-07-28\s+MOD discover-result\s+-$/m);
    expect(stdout).toMatch(/^odd\s+streamable-http\s+-\s+incompatible\s+-\s+AMB not-found\s+allowLegacy$/m);
    expect(stdout).toContain('tools (collision policy prefix):');
  });

  // No --attempts: the default attempts would retry, but a one-shot probe never sleeps on Retry-After.
  test('a server answering 503 with Retry-After: 30 is reported unavailable at once, with retryAfterMs, after one request', async () => {
    const before = busy.requests.length;
    const { code, lines } = await run(['--json', '--probe-timeout-ms', '5000', `busy=${busy.url.href}`]);
    expect(code).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ peer: 'busy', era: null, state: 'unavailable', retryAfterMs: 30_000, evidence: { class: 'STOP', code: 'server-error' } });
    expect(busy.requests.length - before).toBe(1);
  });

  test('without --json, the table says when the server asked to be tried again', async () => {
    const before = busy.requests.length;
    const { code, stdout } = await run(['--probe-timeout-ms', '5000', `busy=${busy.url.href}`]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^busy\s+streamable-http\s+-\s+unavailable\s+-\s+STOP server-error\s+-$/m);
    expect(stdout).toContain(`busy (${busy.url.href}): HTTP 503 (Retry-After 30 s); the server asked to be tried again in 30 s`);
    expect(busy.requests.length - before).toBe(1);
  });

  test('peers come from probe.peers in the config file, with their own policy; a name selects one', async () => {
    const config = join(dir, 'peers.json');
    writeFileSync(config, JSON.stringify({ listen: '127.0.0.1:0', probe: { attempts: 1, peers: [{ name: 'odd', url: notMcp.url.href, allowLegacy: true }, { name: 'new', target: modern.url.href }] } }));
    const all = await run(['--json', '--config', config]);
    // odd's own allowLegacy let it try the initialize; only allowHttpSse is left to try.
    expect(all.lines.map((l) => JSON.parse(l)).map((v) => [v.peer, v.state, v.enableWith])).toEqual([['odd', 'incompatible', 'allowHttpSse'], ['new', 'ready', null]]);
    expect(all.code).toBe(1);
    const one = await run(['--json', '--config', config, 'new']);
    expect(one.code).toBe(0);
    expect(one.lines.map((l) => JSON.parse(l).peer)).toEqual(['new']);
  });

  const badInput: [string, () => string[], RegExp][] = [
    ['a scheme that is not http(s)', () => ['ftp://example.com/mcp'], /only http and https/],
    ['a slash in a peer name', () => ['a/b=http://127.0.0.1:9/mcp'], /must not contain "\/"/],
    ['an unterminated quote', () => ["stdio:node 'server.js"], /unterminated ' quote/],
    ['an unknown collision policy', () => ['--collision', 'merge', 'http://127.0.0.1:9/mcp'], /--collision: expected prefix or reject/],
    ['no target at all', () => [], /no targets/],
  ];
  test.each(badInput)('bad input (%s) exits 2 with one line on stderr', async (_name, args, message) => {
    const { code, stderr, stdout } = await run(args());
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  test('a malformed flag exits 1 with one line on stderr, as for the other commands', async () => {
    const { code, stderr } = await run(['--probe-timeout-ms', 'soon', 'http://127.0.0.1:9/mcp']);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain('--probe-timeout-ms');
  });

  test.each([
    ['a wildcard peer name', { peers: [{ name: '*', url: 'http://127.0.0.1:9/mcp' }] }, /probe\.peers\.0\.name: .*wildcard/],
    ['a wildcard allowlist', { allowLegacy: ['*'], peers: [] }, /probe\.allowLegacy: .*wildcards are refused/],
    ['a wildcard allowLegacy value', { peers: [{ name: 'a', url: 'http://127.0.0.1:9/mcp', allowLegacy: '*' }] }, /probe\.peers\.0\.allowLegacy: .*wildcards are refused/],
    ['a wildcard host', { peers: [{ name: 'a', url: 'http://*.example.com/mcp' }] }, /wildcards are not allowed/],
  ])('a config with %s is refused in one line', async (_name, probeSection, message) => {
    const config = join(dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ probe: probeSection }));
    const { code, stderr } = await run(['--config', config]);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });
});
