/**
 * `mcp-sunset/prober` as another project sees it: `npm run build`, then a temporary project whose
 * node_modules/mcp-sunset links to this repository imports it through package.json `exports`,
 * at run time and with its types.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from './fakes/stdio-peer.js';

const run = promisify(execFile);

const RUNTIME_CHECK = `
import { createServer } from 'node:http';
import { probe, createEraCache, mergeCatalogues } from 'mcp-sunset/prober';

const server = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  const { id, method } = JSON.parse(body);
  const result = method === 'server/discover'
    ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, resultType: 'complete' }
    : { tools: [{ name: 'echo' }], resultType: 'complete' };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const verdict = await probe({ name: 'local', target: { kind: 'http', url: 'http://127.0.0.1:' + server.address().port + '/mcp' } }, { attempts: 1, cache: createEraCache() });
server.close();
let deep = 'resolved';
try { await import('mcp-sunset/dist/server/prober/probe.js'); } catch (error) { deep = error.code; }
console.log(JSON.stringify({
  resolved: import.meta.resolve('mcp-sunset/prober'),
  era: verdict.era,
  sent: verdict.sent.map((m) => m.method),
  merged: mergeCatalogues([{ peer: 'a', tools: [{ name: 'x', description: null }] }], 'reject').ok,
  deep,
}));
`;

const TYPES_CHECK = `
import { probe, type PeerConfig, type ProbeVerdict, type CatalogueResult } from 'mcp-sunset/prober';

const peer: PeerConfig = { name: 'docs', target: { kind: 'stdio', command: 'node', args: ['server.js'] }, allowLegacy: true };
export const one: Promise<ProbeVerdict> = probe(peer, { probeTimeoutMs: 1000 });
export const many: Promise<ProbeVerdict[]> = probe([peer]);
export type Merged = CatalogueResult;
// @ts-expect-error a target needs a kind
export const wrong: PeerConfig = { name: 'x', target: { url: 'http://h/' } };
`;

describe('the mcp-sunset/prober library entry', () => {
  let dir: string;
  beforeAll(async () => {
    await run('npm', ['run', 'build'], { cwd: PROJECT_ROOT, timeout: 240_000 });
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-consumer-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(PROJECT_ROOT, join(dir, 'node_modules', 'mcp-sunset'), 'dir');
    symlinkSync(join(PROJECT_ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { 'mcp-sunset': `file:${PROJECT_ROOT}` } }));
    writeFileSync(join(dir, 'check.mjs'), RUNTIME_CHECK);
    writeFileSync(join(dir, 'check.ts'), TYPES_CHECK);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      files: ['check.ts'],
    }));
  }, 300_000);
  afterAll(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test('imports and runs through package.json exports, and nothing else is exported', async () => {
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: dir, timeout: 60_000 });
    const out = JSON.parse(stdout);
    expect(out.resolved).toMatch(/\/dist\/server\/prober\/index\.js$/);
    expect(out).toMatchObject({ era: 'modern', sent: ['server/discover', 'tools/list'], merged: true, deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  });

  test('its types resolve through the exports "types" condition', async () => {
    const tsc = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir, timeout: 120_000 })).resolves.toBeDefined();
  });
});
