import type { Server } from 'node:http';
import type { ReverseProxy } from '../sidecar/reverse-proxy.js';

export interface DrainOptions {
  server: Server;
  proxy: ReverseProxy;
  /** Answers still expected on open event streams (HTTP+SSE, resumable streams). */
  answersAwaited: () => boolean;
  graceMs: number;
  /** How often the drain looks again; shutdown only, so a coarse step costs nothing. */
  stepMs?: number;
}

export interface DrainResult {
  /** Exchanges still open at the deadline, closed and counted as cancelled. */
  cut: number;
}

/**
 * Stops the sidecar taking new connections and lets exchanges already passed on finish, up to the
 * grace deadline: the upstream has received them, so each is either answered or counted. Idle
 * keep-alive sockets close at once, and again each time an exchange ends and frees one.
 */
export async function drainSidecar(options: DrainOptions): Promise<DrainResult> {
  const { server, proxy } = options;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let expired = false;
  const grace = setTimeout(() => (expired = true), options.graceMs);
  while (proxy.inFlight(options.answersAwaited()) > 0 && !expired) {
    await new Promise((resolve) => setTimeout(resolve, options.stepMs ?? 20));
    server.closeIdleConnections();
  }
  clearTimeout(grace);
  const cut = proxy.cutInFlight();
  // Bodies still arriving were never passed on: nothing to count, nobody upstream waiting.
  server.closeAllConnections();
  await closed;
  return { cut };
}
