import * as z from 'zod';
import { acceptedContent, inputRequired, type McpServer } from '@modelcontextprotocol/server';

/**
 * What a bridged session must carry besides the demo tools: a resource, a prompt, and a tool that
 * asks the user through `input_required` (the dual-era SDK server turns it into a legacy
 * elicitation itself). None of them names the era, so both servers' answers compare equal.
 */
export function registerBridgeSurface(server: McpServer): void {
  server.registerResource('about', 'demo://about', { title: 'About', mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a demo resource' }],
  }));
  server.registerPrompt('greet', { description: 'Greet someone', argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Say hello to ${name}` } }],
  }));
  // Pushes the server makes on its own: a resource changed, and so did the tool list. On stdio they go
  // to the connection's subscriptions/listen streams (modern) or straight to the client (legacy).
  server.registerTool('touch', { description: 'Report a resource as updated, and the tool list as changed', inputSchema: z.object({ uri: z.string() }) }, async ({ uri }) => {
    await server.server.sendResourceUpdated({ uri });
    await server.server.sendToolListChanged();
    return { content: [{ type: 'text', text: `touched ${uri}` }] };
  });
  const confirmation = z.object({ confirm: z.boolean(), note: z.string().optional() });
  server.registerTool(
    'confirm',
    { description: 'Ask the user to confirm an action, then report what they answered', inputSchema: z.object({ action: z.string() }) },
    async ({ action }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `Really ${action}?`, requestedSchema: confirmation }) },
        });
      }
      return { content: [{ type: 'text', text: `${action}: ${answer.confirm ? 'confirmed' : 'declined'}${answer.note === undefined ? '' : ` (${answer.note})`}` }] };
    },
  );
}
