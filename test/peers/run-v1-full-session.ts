import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLIENT_INFO, textOf } from './clients.js';

/** Everything a v1 client saw of the bridge surface (register-bridge-surface.ts), for comparing servers. */
export interface FullSessionSummary {
  toolNames: string[];
  sum: string;
  resources: unknown;
  about: unknown;
  prompts: string[];
  greeting: unknown;
  /** The `confirm` tool's text after the client accepted the elicitation, and the message it was asked. */
  confirmed: string;
  asked: string[];
}

/**
 * A v1 client that declares elicitation and answers each one by accepting with `confirm: true`,
 * over `transport` ('http': legacy Streamable HTTP at `url`; 'sse': HTTP+SSE at `url`, or a ready
 * transport such as stdio). Walks tools, resources, prompts and the eliciting tool.
 */
export async function runV1FullSession(target: { url: URL; kind: 'http' | 'sse' } | { transport: Transport }): Promise<FullSessionSummary> {
  const client = new V1Client(CLIENT_INFO, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { confirm: true, note: 'ok' } };
  });
  const transport = 'transport' in target ? target.transport : target.kind === 'http' ? new V1HttpTransport(target.url) : new V1SseTransport(target.url);
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const sum = textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 5 } }));
    const resources = (await client.listResources()).resources;
    const about = (await client.readResource({ uri: 'demo://about' })).contents;
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    const greeting = (await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } })).messages;
    const confirmed = textOf(await client.callTool({ name: 'confirm', arguments: { action: 'deploy' } }));
    const summary = { toolNames: tools.map((t) => t.name).sort(), sum, resources, about, prompts, greeting, confirmed, asked };
    if (transport instanceof V1HttpTransport) await transport.terminateSession().catch(() => undefined);
    return summary;
  } finally {
    await client.close();
  }
}
