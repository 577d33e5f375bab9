/**
 * Entry of one server child process: `node serve-child.js <kind> [upstream]` (compiled, see
 * run-compiled.ts; from source with `--import tsx`).
 * Each server gets its own process so the load generator and the other servers never share its
 * event loop; the parent talks to it over the IPC channel only.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import type { Server } from 'node:http';
import type { ChildReply, ChildRequest, ServerKind } from './child-messages.js';

interface RunningChild {
  url: URL;
  stop(): Promise<void>;
  health(): Record<string, unknown>;
}

function listenLoopback(server: Server): Promise<URL> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  });
}

async function serve(server: Server, close?: () => Promise<void>): Promise<RunningChild> {
  const url = await listenLoopback(server);
  const stop = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await close?.();
  };
  return { url, stop, health: () => ({}) };
}

function requireUpstream(kind: ServerKind, upstream: URL | undefined): URL {
  if (upstream === undefined) throw new Error(`${kind} needs an upstream URL`);
  return upstream;
}

// Imported per kind, so a bare proxy's heap holds no sidecar modules (SQLite, Express, zod …).
async function start(kind: ServerKind, upstream: URL | undefined): Promise<RunningChild> {
  switch (kind) {
    case 'upstream':
      return serve((await import('../load/upstream-server.js')).createUpstreamServer());
    case 'bare':
      return serve((await import('./bare-proxy.js')).createBareProxy(requireUpstream(kind, upstream)));
    case 'bare-undici':
      return serve((await import('../proxy/bare-undici-proxy.js')).createBareUndiciProxy(requireUpstream(kind, upstream)));
    case 'sdk-dual':
    case 'sdk-modern': {
      const { server, close } = (await import('../bridge/sdk-server.js')).createSdkServer(kind === 'sdk-dual' ? 'dual' : 'modern');
      return serve(server, close);
    }
    case 'proxy-unmetered':
    case 'proxy-classified':
    case 'proxy-unrecorded': {
      const { createProxyVariant } = await import('../ledger/create-proxy-variant.js');
      const variant = kind === 'proxy-unmetered' ? 'unmetered' : kind === 'proxy-classified' ? 'classified' : 'unrecorded';
      return serve(createProxyVariant(requireUpstream(kind, upstream), variant));
    }
    case 'sidecar':
    case 'sidecar-deny-out':
    case 'sidecar-warn-in': {
      const plan = kind === 'sidecar' ? undefined : (await import('../policy/bench-plans.js')).BENCH_PLANS[kind](Date.now());
      const sidecar = await (await import('./start-sidecar.js')).startSidecar(requireUpstream(kind, upstream), plan);
      return { url: sidecar.url, stop: () => sidecar.stop(), health: () => ({ ...sidecar.service.health() }) };
    }
    case 'sidecar-bridge': {
      // A key of its own: one node, nobody else needs to open its sessions.
      const sidecar = await (await import('./start-sidecar.js')).startSidecar(requireUpstream(kind, upstream), undefined, { bridgeKey: randomBytes(32).toString('hex') });
      return { url: sidecar.url, stop: () => sidecar.stop(), health: () => ({ ...sidecar.service.health() }) };
    }
  }
}

// GC pauses are part of a server's cost per request, and the one a profile of JS time hides.
let gcMillis = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMillis += entry.duration;
}).observe({ entryTypes: ['gc'] });

const send = (reply: ChildReply) => process.send?.(reply);
const kind = process.argv[2] as ServerKind;
const upstreamArg = process.argv[3];
const running = await start(kind, upstreamArg === undefined ? undefined : new URL(upstreamArg));

process.on('message', (request: ChildRequest) => {
  if (request.type === 'stats') {
    const usage = process.cpuUsage();
    send({ type: 'stats', cpuMicros: usage.user + usage.system, gcMicros: Math.round(gcMillis * 1000), health: running.health() });
  }
  if (request.type === 'stop') {
    // A normal exit (not a signal) is what lets --cpu-prof write its profile.
    void running.stop().finally(() => process.exit(0));
  }
});
// An orphaned child (parent crashed) must not keep a port open forever.
process.on('disconnect', () => void running.stop().finally(() => process.exit(0)));
send({ type: 'ready', url: running.url.href });
