/** A legacy MCP server over stdio on the v1 SDK; run as a script (`node --import tsx …`). */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerV1PeerTools } from './register-v1-peer-tools.js';

const server = new McpServer({ name: 'v1-stdio-peer', version: '1.0.0' });
registerV1PeerTools(server);
await server.connect(new StdioServerTransport());
