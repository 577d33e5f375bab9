/** Scripted HTTP peers shared by the prober's HTTP tests. */
import { afterEach } from 'vitest';
import type { PeerConfig, PeerPolicy } from '../../../server/prober/targets/peer-config.js';
import type { ProbeOptions } from '../../../server/prober/probe-options.js';
import { INITIALIZE_RESULT, rpc, startFakeHttpServer, TOOLS, type FakeHandler, type FakeRequest, type FakeServer } from './fake-http-server.js';

export const FAST: ProbeOptions = { attempts: 1, probeTimeoutMs: 2000, initializeTimeoutMs: 2000 };

/** Starts fakes that are closed after each test of the calling file. */
export function useFakes(): (handler: FakeHandler, path?: string) => Promise<FakeServer> {
  const servers: FakeServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handler, path) => {
    const server = await startFakeHttpServer(handler, path);
    servers.push(server);
    return server;
  };
}

export const peerAt = (server: FakeServer, policy: Partial<PeerPolicy> = {}, name = 'peer'): PeerConfig => ({ name, target: { kind: 'http', url: server.url.href }, ...policy });
export const sentMethods = (verdict: { sent: { method: string }[] }) => verdict.sent.map((m) => m.method);
export const methodOf = (r: FakeRequest) => r.body?.method as string | undefined;

/** A legacy server that answers the probe with `probeReply`, then serves a session. */
export function legacyServer(probeReply: FakeHandler, version = '2025-11-25'): FakeHandler {
  return (r, ctx) => {
    if (r.method === 'DELETE') return { status: 200 };
    switch (methodOf(r)) {
      case 'server/discover':
        return probeReply(r, ctx);
      case 'initialize':
        return { status: 200, headers: { 'mcp-session-id': 'sess-1' }, sse: [{ event: 'message', data: JSON.stringify(rpc.result(r, INITIALIZE_RESULT(version))) }] };
      case 'notifications/initialized':
        return { status: 202 };
      case 'tools/list':
        return { status: 200, json: rpc.result(r, TOOLS('echo')) };
      default:
        return { status: 400, json: rpc.error(r, -32601, 'Method not found') };
    }
  };
}

/** A legacy prevalidation rejection: HTTP 400, -32000, null id. */
export const legacy400 = (message: string) => (_r: FakeRequest) => ({ status: 400, json: rpc.error(null, -32000, message) });
