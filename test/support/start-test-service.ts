import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../server/cli/start-service.js';
import type { ConfigInput } from '../../server/config/config-schema.js';
import { loadConfig } from '../../server/config/load-config.js';
import { createLogger } from '../../server/lib/create-logger.js';
import { openDatabase, type SqliteDatabase } from '../../server/store/sqlite/open-database.js';

export interface TestService extends RunningService {
  dir: string;
  dbPath: string;
  /**
   * A second SQLite connection to the service's file, opened on first use and closed with the
   * service: for seeding with the SQLite writers and for raw reads the Store does not offer.
   */
  database(): SqliteDatabase;
  /** GET an API path on the service and parse the JSON answer. */
  api<T = any>(path: string): Promise<{ status: number; body: T }>;
  /** Stops the service and removes its temporary directory. */
  dispose(): Promise<void>;
}

/** Starts the real service (proxy, tally, SQLite file, API) on loopback ports in a temp dir, on the given clock when one is given. */
export async function startTestService(upstream: URL, overrides: Partial<ConfigInput> = {}, now?: () => number): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-test-'));
  const dbPath = join(dir, 'sunset.db');
  const config = loadConfig({
    flags: { listen: '127.0.0.1:0', dashboard: '127.0.0.1:0', db: dbPath, node: 'test-node', logLevel: 'silent', ...overrides },
  });
  const service = await startService({ config, upstream, logger: createLogger(config.logLevel), now });
  let stopped = false;
  let second: SqliteDatabase | undefined;
  const closeSecond = () => {
    second?.close();
    second = undefined;
  };
  return {
    ...service,
    dir,
    dbPath,
    database() {
      second ??= openDatabase(dbPath);
      return second;
    },
    async api(path) {
      const response = await fetch(new URL(path, service.apiUrl));
      return { status: response.status, body: (await response.json()) as never };
    },
    async dispose() {
      closeSecond();
      if (!stopped) await service.stop();
      stopped = true;
      rmSync(dir, { recursive: true, force: true });
    },
    async stop() {
      closeSecond();
      const final = stopped ? { spooled: 0, lost: 0 } : await service.stop();
      stopped = true;
      return final;
    },
  };
}

/** Totals of /api/v1/traffic for one grouping over the last hour, with optional filters. */
export async function trafficTotals(service: TestService, groupBy: string, filters: Record<string, string> = {}): Promise<Record<string, number>> {
  const params = new URLSearchParams({ bucket: 'minute', groupBy, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), ...filters });
  const { status, body } = await service.api(`/api/v1/traffic?${params}`);
  if (status !== 200) throw new Error(`traffic API answered ${status}: ${JSON.stringify(body)}`);
  return body.totals;
}
