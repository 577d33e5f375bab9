/** Real SDK clients and plan requests shared by the enforcement tests through the sidecar. */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import type { TestService } from './start-test-service.js';

export const POLICY_URL = 'https://example.com/mcp/legacy-retirement';

/** A plan date (YYYY-MM-DD, UTC) this many days from now. */
export function dayFromNow(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

const HOUR = 3_600_000;

/** A plan (the API's body) retiring the legacy era: announced 60 days ago, retired in 90, `deny`; `extra` overrides. */
export function legacyPlan(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Retire the legacy era', scope: { kind: 'era', value: 'legacy' }, announceDate: dayFromNow(-60), retireDate: dayFromNow(90), policyUrl: POLICY_URL, action: 'deny', ...extra };
}

/** One brownout window running now, from an hour ago to an hour ahead. */
export function brownoutNow(): { startsAt: string; endsAt: string; note: string }[] {
  return [{ startsAt: new Date(Date.now() - HOUR).toISOString(), endsAt: new Date(Date.now() + HOUR).toISOString(), note: 'test brownout' }];
}

/** The error a client run throws; fails the test when it does not throw. */
export async function errorOf(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the client to fail');
}

/** POSTs or PATCHes a plan through the service's API; any answer but 2xx fails the test with its body. */
export async function sendPlan(service: TestService, method: 'POST' | 'PATCH', path: string, body: unknown): Promise<{ id: number }> {
  const response = await fetch(new URL(path, service.apiUrl), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer as { id: number };
}

/** A v1 Streamable HTTP session, with an API key when given: connect, call `add`, end the session. Throws what the client surfaces. */
export async function v1HttpAdd(url: URL, apiKey?: string): Promise<string> {
  const client = new V1Client(CLIENT_INFO);
  const transport = new V1HttpTransport(url, apiKey === undefined ? undefined : { requestInit: { headers: { 'x-api-key': apiKey } } });
  await client.connect(transport);
  try {
    const result = textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }));
    await transport.terminateSession();
    return result;
  } finally {
    await client.close();
  }
}

/** A v1 HTTP+SSE client: open the stream, call `add`, close. */
export async function v1SseAdd(url: URL): Promise<string> {
  const client = new V1Client(CLIENT_INFO);
  await client.connect(new V1SseTransport(url));
  try {
    return textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }));
  } finally {
    await client.close();
  }
}

/** A v2 client pinned to 2026-07-28: connect, call `add`, close. */
export async function v2Add(url: URL): Promise<string> {
  const client = new V2Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new V2HttpTransport(url));
  try {
    return textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }));
  } finally {
    await client.close();
  }
}

/** What a v1 Streamable HTTP client gets from one node: the tool's answer (`3`), `brownout` when it surfaces that refusal, or the error it throws. */
export async function v1Outcome(url: URL): Promise<string> {
  try {
    return await v1HttpAdd(url);
  } catch (error) {
    return (error as Error).message.includes('brownout') ? 'brownout' : (error as Error).message;
  }
}

/**
 * Waits until a node has compiled the stored policy version `version` (or a later one): the event
 * after which every request it takes meets that policy. A node checks the stored version every
 * second (create-policy-refresher.ts, whose tests hold that cadence); a test waits for the event
 * rather than asserting the wall-clock time it took, so a loaded machine cannot fail it.
 */
export async function policyInForce(nodeVersion: () => number | undefined, version: number): Promise<void> {
  while ((nodeVersion() ?? -1) < version) await new Promise((resolve) => setTimeout(resolve, 20));
}
