/**
 * mcp-sunset as a package: built and packed from a copy of the working tree (so dist/ here is never
 * touched), installed with `npm install --offline <tarball>` into an empty project from the npm cache
 * `npm ci` filled (see consumer-project.ts for the lockfile and better-sqlite3's binary), then used
 * from there as a user would: the CLI through npx, `serve`'s demo with a real client session counted
 * in the API, and an Express app in TypeScript behind `mcp-sunset/express`.
 *
 * The file list checked is `npm pack --json`'s, the list `--dry-run --json` prints, of the very
 * tarball installed. The install must succeed with `--offline`; it falls back to `--prefer-offline`
 * (the registry for what the cache lacks) so the other checks still run, and the install test then
 * fails saying so. 25 to 45 s on two cores, most of it the build and the install.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_INFO, runV1HttpSession, runV2Session } from '../peers/clients.js';
import { PROJECT_ROOT, waitForServing, type CliRun } from '../support/spawn-cli.js';
import { buildPackage, npmEnv, type PackedPackage } from './build-package.js';
import { installConsumer, type ConsumerProject } from './consumer-project.js';
import { tallyClientMessages, totalOf, type MethodTally } from './tally-client-messages.js';

const run = promisify(execFile);

const TOKEN = 'package-check-token';

/** A host app as docs/middleware.md writes it, with a dual-era v2 SDK server behind it. */
const APP_TS = `
import express from 'express';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod';
import { meter, servedBy, type FinalFlush, type MeterMiddleware, type MeterOptions } from 'mcp-sunset/express';

const db = process.argv[2];
if (db === undefined) throw new Error('usage: node app.js <database>');

const options: MeterOptions = { db, node: 'consumer-app', logLevel: 'silent' };
const metered: MeterMiddleware = meter(options);
const mcp = createMcpHandler(() => {
  const server = new McpServer({ name: 'consumer-app', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  return server;
});
const handle = toNodeHandler(mcp);

const app = express();
app.use('/mcp', metered);
app.all('/mcp', (req, res) => void handle(req, res));

// The types are the package's own, not any: these would compile if they were.
// @ts-expect-error the middleware has no upstream
export const wrong: MeterOptions = { upstream: 'http://h/' };
// @ts-expect-error an era is legacy or modern
export const unknownEra = (res: Parameters<typeof servedBy>[0]) => servedBy(res, 'unknown');

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  process.stdout.write(JSON.stringify({ port: address.port }) + '\\n');
});
process.once('SIGTERM', () => server.close(async () => {
  await mcp.close();
  const final: FinalFlush = await metered.close();
  process.stdout.write(JSON.stringify({ final }) + '\\n');
}));
`;

const TSCONFIG = {
  compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, skipLibCheck: true, types: ['node'], outDir: 'out' },
  files: ['app.ts'],
};

/** Runs `command` in the consumer project, in a process group of its own so a failed test can end it. */
function spawnIn(dir: string, command: string, args: string[]): CliRun {
  const child = spawn(command, args, { cwd: dir, env: npmEnv({ npm_config_offline: 'true' }), detached: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Ends what a test left running: the whole process group it started, its leader gone or not. */
function endGroup(started: CliRun): void {
  if (started.child.pid === undefined) return;
  try {
    process.kill(-started.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function getJson<T>(url: URL): Promise<T> {
  const response = await fetch(url);
  expect(response.status, `${url.pathname}${url.search}`).toBe(200);
  return (await response.json()) as T;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the packed package, installed into an empty project', () => {
  let work: string;
  let packed: PackedPackage;
  let consumer: ConsumerProject;
  const running: CliRun[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'mcp-sunset-package-'));
    packed = await buildPackage(work);
    consumer = await installConsumer(join(work, 'consumer'), packed.tarball, packed.manifest.dependencies ?? {});
  }, 420_000);

  afterAll(() => {
    for (const started of running) endGroup(started);
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test('the tarball carries the built service, its dashboard, migrations and types, and nothing of the workshop', () => {
    const paths = packed.files.map((file) => file.path);
    const workshop = paths.filter((path) => /^(test|fixtures|bench|tools|web|server)\//.test(path) || /(^|\/)(test|fixtures|bench|tools)\//.test(path) || /\.test\.|\.map$/.test(path));
    expect(workshop).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/server/cli/main.js', 'dist/web/index.html', 'dist/web/main.js']));
    if (existsSync(join(PROJECT_ROOT, 'LICENSE'))) expect(paths).toContain('LICENSE');
    for (const dialect of ['sqlite', 'postgres']) {
      expect(paths).toContain(`migrations/${dialect}/meta/_journal.json`);
      expect(paths.filter((path) => path.startsWith(`migrations/${dialect}/`) && path.endsWith('.sql')).length).toBeGreaterThan(0);
    }
    // Every file package.json's exports and bin name is in the tarball.
    const named = Object.values(packed.manifest.exports ?? {}).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target as Record<string, string>)));
    for (const file of [...named, ...Object.values(packed.manifest.bin ?? {})]) expect(paths).toContain(file.replace(/^\.\//, ''));
    expect(named.filter((file) => file.endsWith('.d.ts')).length).toBeGreaterThanOrEqual(2);
  });

  test('it installed offline from the cache, with better-sqlite3\'s install script run and its binary in place', () => {
    // --prefer-offline means the cache missed something and the registry filled it in.
    expect(consumer.installedWith).toBe('--offline');
    const installed = join(consumer.dir, 'node_modules', 'mcp-sunset');
    expect(readFileSync(join(installed, 'dist', 'server', 'cli', 'main.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(existsSync(join(installed, 'migrations', 'sqlite', 'meta', '_journal.json'))).toBe(true);
    expect(existsSync(join(consumer.dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
  });

  test('npx mcp-sunset --help exits 0 and lists the commands', async () => {
    const { stdout } = await run('npx', ['mcp-sunset', '--help'], { cwd: consumer.dir, env: npmEnv({ npm_config_offline: 'true' }), timeout: 60_000 });
    for (const command of ['serve', 'demo', 'dashboard', 'wrap', 'report', 'dry-run', 'pause', 'resume', 'probe', 'migrate']) expect(stdout).toMatch(new RegExp(`^\\s+${command} `, 'm'));
  });

  test('mcp-sunset serve runs the demo from node_modules, counts a real client session in the API and stops cleanly on SIGTERM', async () => {
    const db = join(consumer.dir, 'data', 'serve.db');
    // The bin npx would run, started directly: a SIGTERM sent to npx (npm 11) ends npm and leaves the
    // server running, since npm runs the bin through a shell that does not pass the signal on.
    const serve = spawnIn(consumer.dir, join(consumer.dir, 'node_modules', '.bin', 'mcp-sunset'), ['serve', '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--db', db, '--node', 'package-check', '--log-level', 'warn']);
    running.push(serve);
    const { sidecarUrl, apiUrl } = await waitForServing(serve, 90_000);
    const mcp = new URL('/mcp', sidecarUrl);

    // The store opened with the migrations shipped in node_modules/mcp-sunset, and the built dashboard is served.
    const health = await getJson<{ status: string; store: { available: boolean; path: string } }>(new URL('/healthz', apiUrl));
    expect(health).toMatchObject({ status: 'ok', store: { available: true, path: db } });
    const page = await fetch(new URL('/', apiUrl));
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);

    // The demo's own clients share the sidecar: ours carries a token of its own and is found by what it claims to be.
    const legacy = await tallyClientMessages(sidecarUrl.origin, () => runV1HttpSession(mcp, { token: TOKEN }));
    const modern = await tallyClientMessages(sidecarUrl.origin, () => runV2Session(mcp, 'pin', { token: TOKEN }));
    expect(legacy.result.sum).toBe('3');
    expect(modern.result.sum).toBe('3');
    expect(Object.keys(legacy.tally)).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call']));
    expect(Object.keys(modern.tally)).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));
    const key = await waitFor('the session\'s caller in /api/v1/integrations', async () => {
      const { integrations } = await getJson<{ integrations: { key: string; claimsToBe: { name: string } | null }[] }>(new URL('/api/v1/integrations?limit=1000', apiUrl));
      return integrations.find((caller) => caller.claimsToBe?.name === CLIENT_INFO.name)?.key;
    });
    const counted = async (era: string) => {
      const url = new URL('/api/v1/traffic', apiUrl);
      url.search = new URLSearchParams({ bucket: 'minute', groupBy: 'method', integration: key, era }).toString();
      return (await getJson<{ totals: MethodTally }>(url)).totals;
    };
    expect(await counted('legacy')).toEqual(legacy.tally);
    expect(await counted('modern')).toEqual(modern.tally);

    serve.child.kill('SIGTERM');
    expect(await serve.exited, serve.stderr()).toBe(0);
  }, 180_000);

  test('an Express app typechecks against mcp-sunset/express, meters a v1 and a v2 session, and the counts are in its store', async () => {
    writeFileSync(join(consumer.dir, 'app.ts'), APP_TS);
    writeFileSync(join(consumer.dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    // One run both typechecks and compiles: a type error fails it before anything runs.
    const tsc = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer.dir, timeout: 120_000 }).catch((error: { stdout?: string }) => {
      throw new Error(`the consumer's app.ts did not compile:\n${error.stdout ?? String(error)}`);
    });

    const db = join(consumer.dir, 'data', 'app.db');
    const app = spawnIn(consumer.dir, process.execPath, [join('out', 'app.js'), db]);
    running.push(app);
    const { port } = await waitFor('the app to listen', async () => {
      const line = app.stdout().split('\n')[0];
      if (app.child.exitCode !== null) throw new Error(`the app exited:\n${app.stderr()}`);
      return line?.endsWith('}') ? (JSON.parse(line) as { port: number }) : undefined;
    });
    const origin = `http://127.0.0.1:${port}`;
    const legacy = await tallyClientMessages(origin, () => runV1HttpSession(new URL('/mcp', origin)));
    const modern = await tallyClientMessages(origin, () => runV2Session(new URL('/mcp', origin), 'pin'));
    expect([legacy.result.sum, modern.result.sum]).toEqual(['3', '3']);
    expect(Object.keys(legacy.tally)).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call']));
    expect(Object.keys(modern.tally)).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));

    app.child.kill('SIGTERM');
    expect(await app.exited, app.stderr()).toBe(0);
    expect(JSON.parse(app.stdout().trim().split('\n').at(-1)!)).toEqual({ final: expect.objectContaining({ spooled: 0, lost: 0 }) });

    // docs/middleware.md's way to read a middleware's counts: mcp-sunset report on the same file.
    const { stdout } = await run('npx', ['mcp-sunset', 'report', '--db', db, '--json'], { cwd: consumer.dir, env: npmEnv({ npm_config_offline: 'true' }), timeout: 60_000 });
    const report = JSON.parse(stdout) as { total: number; byEra: Record<string, number> };
    expect(report.byEra).toMatchObject({ legacy: totalOf(legacy.tally), modern: totalOf(modern.tally) });
    expect(report.total).toBe(totalOf(legacy.tally) + totalOf(modern.tally));
  }, 180_000);
});
