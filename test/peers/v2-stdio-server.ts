/**
 * An MCP server over stdio on the v2 SDK (`modern` or `dual`); run as a script (`node --import tsx … modern`).
 * A second argument `bridge` adds the bridge surface (register-bridge-surface.ts) to the demo tools.
 * With `PEER_STDIN_LOG` set, every byte the process reads on stdin is also appended to that file
 * (created empty once the process is up), and `<file>.ended` is created when stdin ends, so a test
 * can tell everything that reached the server itself. With `PEER_SERVED_LOG` set, every message the
 * SDK delivers to a server instance is appended to that file as one JSON line `{ era, method, id }`
 * (served-log.ts), the era being the one the SDK built the instance for.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { registerDemoTools } from '../../server/demo/demo-tools.js';
import { registerBridgeSurface } from './register-bridge-surface.js';
import { logServedBy, ServedLog } from '../support/served-log.js';

const mode = process.argv[2] === 'modern' ? 'modern' : 'dual';
const bridgeSurface = process.argv[3] === 'bridge';
const stdinLog = process.env.PEER_STDIN_LOG;
if (stdinLog !== undefined) {
  writeFileSync(stdinLog, '');
  process.stdin.on('data', (chunk: Buffer) => appendFileSync(stdinLog, chunk));
  process.stdin.on('end', () => writeFileSync(`${stdinLog}.ended`, ''));
}
const servedLogPath = process.env.PEER_SERVED_LOG;
let served: ServedLog | undefined;
if (servedLogPath !== undefined) {
  writeFileSync(servedLogPath, '');
  served = new ServedLog();
  // Each entry goes to the file the test reads, as it is logged.
  served.entries.push = (...entries) => {
    for (const entry of entries) appendFileSync(servedLogPath, `${JSON.stringify(entry)}\n`);
    return 0;
  };
}
serveStdio(
  (ctx) => {
    const server = new McpServer({ name: `v2-stdio-${mode}-peer`, version: '1.0.0' }, bridgeSurface ? { capabilities: { resources: { subscribe: true } } } : undefined);
    registerDemoTools(server, ctx.era);
    if (bridgeSurface) registerBridgeSurface(server);
    return served === undefined ? server : logServedBy(server, ctx.era, served);
  },
  mode === 'modern' ? { legacy: 'reject' } : {},
);
