import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';

export type DemoEra = 'legacy' | 'modern';

/**
 * Registers the demo surface on a v2 SDK server: `echo`, `add` and `count`. Echo names the era
 * that served it so a person watching the demo can see which leg answered.
 */
export function registerDemoTools(server: McpServer, era: DemoEra): void {
  server.registerTool(
    'echo',
    { description: 'Echo the text back, tagged with the era that served it', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: `${text} era=${era}` }] }),
  );
  server.registerTool(
    'add',
    { description: 'Add two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool(
    'count',
    {
      description: 'Report progress steps times, delayMs apart, then finish',
      inputSchema: z.object({ steps: z.number().int().min(0).max(1000), delayMs: z.number().int().min(0).max(60_000) }),
    },
    async ({ steps, delayMs }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await sleep(delayMs, undefined, { signal: ctx.mcpReq.signal });
        if (progressToken === undefined) continue;
        // A related notification before the result is what upgrades a modern response to SSE.
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: step, total: steps } });
      }
      return { content: [{ type: 'text', text: `counted ${steps}` }] };
    },
  );
}
