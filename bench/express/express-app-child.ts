/**
 * One Express MCP app in its own process: the v2 SDK's dual-era handler at /mcp, with the metering
 * middleware in front (`metered`; `enforcing` with a warn plan in its store), a middleware that only
 * calls next() (`noop`), or nothing (`plain`), each mounted as a host would. Reports its URL over IPC,
 * and on `stop` closes the middleware (its final flush included) and exits.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { registerDemoTools } from '../../server/demo/demo-tools.js';
import { meter } from '../../server/express/index.js';
import { openStore } from '../../server/store/open-store.js';

/** What the app tells its parent over IPC. */
export type ExpressAppReply =
  | { type: 'ready'; url: string }
  | { type: 'cpu'; usage: NodeJS.CpuUsage }
  | { type: 'stopped'; final: unknown; enforcingPlans: number | null };

const variant = process.argv[2] ?? 'plain';
const handler = createMcpHandler((ctx) => {
  const server = new McpServer({ name: 'bench-express-app', version: '1.0.0' });
  registerDemoTools(server, ctx.era);
  return server;
});
const handle = toNodeHandler(handler);
const db = join(mkdtempSync(join(tmpdir(), 'mcp-sunset-bench-')), 'sunset.db');
if (variant === 'enforcing') {
  const store = await openStore(db);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  await store.insertPlan({
    name: 'Retire the legacy era', scopeKind: 'era', scopeValue: 'legacy', announceDate: day(-30), retireDate: day(60), targetShare: 0.01,
    basis: 'work-requests', policyUrl: 'https://example.com/retirement', brownouts: [], action: 'warn', blockNewCallersFrom: null,
    quietDays: 30, gate: null, exemptions: [], declaredKey: null,
  }, Date.now());
  await store.close();
}
const metered = variant === 'metered' || variant === 'enforcing' ? meter({ db, node: 'bench', logger: pino({ level: 'silent' }) }) : undefined;

const app = express();
if (metered) app.use('/mcp', metered);
if (variant === 'noop') app.use('/mcp', (_req, _res, next) => next());
app.post('/mcp', (req, res) => void handle(req, res));
const server = createServer(app);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
process.on('message', async (message: { type: string }) => {
  if (message.type === 'cpu') return process.send?.({ type: 'cpu', usage: process.cpuUsage() });
  if (message.type !== 'stop') return;
  server.closeAllConnections();
  server.close();
  const policy = metered?.policy() ?? null;
  const final = await metered?.close();
  await handler.close();
  process.send?.({ type: 'stopped', final: final ?? null, enforcingPlans: policy?.enforcingPlans ?? null });
  process.exit(0);
});
