import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../server/cli/start-service.js';
import { loadConfig } from '../server/config/load-config.js';
import { createLogger } from '../server/lib/create-logger.js';

export interface BenchSidecar {
  url: URL;
  service: RunningService;
  /** Stops the service and deletes its database. */
  stop(): Promise<void>;
}

/**
 * The sidecar exactly as `serve` composes it (proxy, tally, 1 s flusher, API), on a real SQLite
 * file: the flushes during a run are part of the cost being measured.
 */
export async function startSidecar(upstream: URL): Promise<BenchSidecar> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-bench-'));
  const config = loadConfig({
    flags: { listen: '127.0.0.1:0', dashboard: '127.0.0.1:0', db: join(dir, 'bench.db'), node: 'bench', logLevel: 'silent' },
  });
  const service = await startService({ config, upstream, logger: createLogger('silent') });
  return {
    url: service.sidecarUrl,
    service,
    async stop() {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
