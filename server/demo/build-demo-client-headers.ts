import type { DemoClient } from './demo-clients.js';

/** The credentials a demo client sends with every request; `apiKeyHeader` is the sidecar's configured one. */
export function buildDemoClientHeaders(client: DemoClient, apiKeyHeader: string): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${client.token}` };
  if (client.apiKey !== undefined) headers[apiKeyHeader.toLowerCase()] = client.apiKey;
  return headers;
}
