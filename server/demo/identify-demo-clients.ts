import type { IncomingMessage } from 'node:http';
import type { Caller } from '../sidecar/identify-caller.js';
import { buildDemoClientHeaders } from './build-demo-client-headers.js';
import { DEMO_CLIENTS } from './demo-clients.js';
import type { DemoClientKind } from './run-demo-session.js';

/**
 * The caller the sidecar will see for each demo client, found by asking the sidecar's own
 * identifier about a request carrying that client's credentials from loopback, where the clients
 * run. The seeded history files the callers the clients play under these keys, so the live
 * clients continue known integrations instead of showing up as new ones.
 */
export function identifyDemoClients(identify: (req: IncomingMessage) => Caller, apiKeyHeader: string): Record<DemoClientKind, Caller> {
  const entries = DEMO_CLIENTS.map((client) => {
    // Only the parts the identifier reads: the headers and the peer address.
    const request = { headers: buildDemoClientHeaders(client, apiKeyHeader), socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    return [client.kind, identify(request)] as const;
  });
  return Object.fromEntries(entries) as Record<DemoClientKind, Caller>;
}
