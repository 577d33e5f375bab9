/** An MCP server over stdio on the v2 SDK (`modern` or `dual`); run as a script (`node --import tsx … modern`). */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { registerDemoTools } from '../../server/demo/demo-tools.js';

const mode = process.argv[2] === 'modern' ? 'modern' : 'dual';
serveStdio(
  (ctx) => {
    const server = new McpServer({ name: `v2-stdio-${mode}-peer`, version: '1.0.0' });
    registerDemoTools(server, ctx.era);
    return server;
  },
  mode === 'modern' ? { legacy: 'reject' } : {},
);
