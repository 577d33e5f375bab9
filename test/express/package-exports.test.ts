/**
 * `mcp-sunset/express` as another project sees it: `npm run build`, then a temporary project whose
 * node_modules/mcp-sunset links to this repository imports it through package.json `exports`, at
 * run time (on plain node:http, which Express extends) and with its types (against Express's).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../prober/fakes/stdio-peer.js';

const run = promisify(execFile);

const RUNTIME_CHECK = `
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { meter, servedBy } from 'mcp-sunset/express';

const db = process.argv[2];
const metered = meter({ db, node: 'consumer', logLevel: 'silent' });
const server = createServer((req, res) => metered(req, res, async () => {
  let body = '';
  for await (const chunk of req) body += chunk;
  servedBy(res, 'modern');
  const { id } = JSON.parse(body);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [] } }));
}));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const response = await fetch('http://127.0.0.1:' + server.address().port + '/mcp', {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
});
const answer = await response.json();
server.close();
const final = await metered.close();
let deep = 'resolved';
try { await import('mcp-sunset/dist/server/express/meter.js'); } catch (error) { deep = error.code; }
let badOption;
try { meter({ db, node: 'consumer', flushIntervalMs: 0 }); } catch (error) { badOption = error.message; }
console.log(JSON.stringify({ resolved: import.meta.resolve('mcp-sunset/express'), id: answer.id, final, stored: existsSync(db), deep, badOption }));
`;

const TYPES_CHECK = `
import type { RequestHandler } from 'express';
import { meter, servedBy, type FinalFlush, type MeterMiddleware, type MeterOptions } from 'mcp-sunset/express';

const options: MeterOptions = { db: 'counts.db', caps: { sessions: 100 }, identity: { order: ['bearer'] } };
const metered: MeterMiddleware = meter(options);
export const handler: RequestHandler = metered;
export const closed: Promise<FinalFlush> = metered.close();
export const declare = (res: Parameters<RequestHandler>[1]) => servedBy(res, 'legacy');
// @ts-expect-error the middleware has no upstream
export const wrong: MeterOptions = { upstream: 'http://h/' };
// @ts-expect-error an era is legacy or modern
export const unknownEra = (res: Parameters<RequestHandler>[1]) => servedBy(res, 'unknown');
`;

describe('the mcp-sunset/express library entry', () => {
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

  test('imports and meters through package.json exports, and nothing else is exported', async () => {
    const { stdout } = await run(process.execPath, ['check.mjs', join(dir, 'counts.db')], { cwd: dir, timeout: 60_000 });
    const out = JSON.parse(stdout);
    expect(out.resolved).toMatch(/\/dist\/server\/express\/index\.js$/);
    expect(out).toMatchObject({ id: 9, final: { spooled: 0, lost: 0 }, stored: true, deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    expect(out.badOption).toMatch(/^flushIntervalMs: /);
  });

  test('its types resolve through the exports "types" condition and fit Express\'s RequestHandler', async () => {
    const tsc = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir, timeout: 120_000 })).resolves.toBeDefined();
  });
});
