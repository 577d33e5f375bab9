import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The peers' common tool surface (echo, add, count) on a v1 SDK server. */
export function registerV1PeerTools(server: McpServer): void {
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  server.registerTool(
    'count',
    {
      description: 'Report progress steps times, delayMs apart, then finish',
      inputSchema: { steps: z.number().int().min(0), delayMs: z.number().int().min(0) },
    },
    async ({ steps, delayMs }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await sleep(delayMs);
        if (progressToken === undefined) continue;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: steps },
        });
      }
      return { content: [{ type: 'text', text: `counted ${steps}` }] };
    },
  );
}
