import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../server/cli/start-service.js';
import { loadConfig } from '../../server/config/load-config.js';
import { createLogger } from '../../server/lib/create-logger.js';

export interface BenchSidecar {
  url: URL;
  service: RunningService;
  /** Stops the service and deletes its database. */
  stop(): Promise<void>;
}

export interface SidecarOptions {
  /** Run as `serve --bridge` with MCP_SUNSET_BRIDGE_KEY set to this (hex): legacy clients answered at the edge. */
  bridgeKey?: string;
}

/**
 * The sidecar exactly as `serve` composes it (proxy, tally, 1 s flusher, API), on a real SQLite
 * file: the flushes during a run are part of the cost being measured. A plan, when given, is
 * created through the API as an operator would, and is in force before this returns.
 */
export async function startSidecar(upstream: URL, plan?: Record<string, unknown>, options: SidecarOptions = {}): Promise<BenchSidecar> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-bench-'));
  const loaded = loadConfig({
    flags: { listen: '127.0.0.1:0', dashboard: '127.0.0.1:0', db: join(dir, 'bench.db'), node: 'bench', logLevel: 'silent' },
    env: options.bridgeKey === undefined ? {} : { MCP_SUNSET_BRIDGE_KEY: options.bridgeKey },
  });
  // What the CLI's --bridge flag does on top of the loaded settings (server/cli/main.ts).
  const config = options.bridgeKey === undefined ? loaded : Object.freeze({ ...loaded, bridge: { ...loaded.bridge, enabled: true } });
  const service = await startService({ config, upstream, logger: createLogger('silent') });
  if (plan !== undefined) {
    const response = await fetch(new URL('/api/v1/plans', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(plan) });
    if (response.status !== 201) throw new Error(`the bench plan was refused: ${await response.text()}`);
    // The API asks for the rebuild without waiting for it; wait here, so the first measured request meets the plan.
    await service.refreshPolicy();
    if (service.health().policy.enforcingPlans !== 1) throw new Error('the bench plan is not in force');
  }
  return {
    url: service.sidecarUrl,
    service,
    async stop() {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
