import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkBridgeNodeUrl } from '../../server/cli/check-bridge-node-url.js';
import { ConfigError, loadConfig } from '../../server/config/load-config.js';
import { spawnCli } from '../support/spawn-cli.js';

const key = randomBytes(32).toString('hex');
const fleet = 'postgres://sunset@127.0.0.1:1/sunset';

function config(flags: Record<string, unknown>, env: Record<string, string> = {}) {
  const loaded = loadConfig({ flags: { node: 'n1', ...flags }, env: { MCP_SUNSET_BRIDGE_KEY: key, ...env } });
  // As `--bridge` turns it on.
  return { ...loaded, bridge: { ...loaded.bridge, enabled: true } };
}

describe('a bridge on a fleet needs a node URL the other nodes can reach', () => {
  it('refuses 0.0.0.0 and :: on a shared Postgres store, naming the setting', () => {
    for (const listen of ['0.0.0.0:8808', '[::]:8808']) {
      expect(() => checkBridgeNodeUrl(config({ listen, db: fleet }))).toThrow(ConfigError);
      expect(() => checkBridgeNodeUrl(config({ listen, db: fleet }))).toThrow(/^bridge\.nodeUrl: required by --bridge on a fleet store/);
    }
  });

  it('takes a routable listen address, a configured node URL (file or MCP_SUNSET_BRIDGE_NODE_URL), or a single node on SQLite', () => {
    expect(() => checkBridgeNodeUrl(config({ listen: '10.0.0.5:8808', db: fleet }))).not.toThrow();
    expect(() => checkBridgeNodeUrl(config({ listen: '0.0.0.0:8808', db: fleet }, { MCP_SUNSET_BRIDGE_NODE_URL: 'http://10.0.0.5:8808' }))).not.toThrow();
    expect(config({}, { MCP_SUNSET_BRIDGE_NODE_URL: 'http://10.0.0.5:8808' }).bridge.nodeUrl).toBe('http://10.0.0.5:8808');
    expect(() => checkBridgeNodeUrl(config({ listen: '0.0.0.0:8808', db: 'sunset.db' }))).not.toThrow();
  });

  it('serve --bridge on Postgres, listening on 0.0.0.0 without a node URL, exits 2 with one line before it opens anything', async () => {
    const run = spawnCli(['serve', '--bridge', '--upstream', 'http://127.0.0.1:9/mcp', '--listen', '0.0.0.0:0', '--dashboard', '127.0.0.1:0', '--db', fleet], { env: { MCP_SUNSET_BRIDGE_KEY: key } });
    expect(await run.exited).toBe(2);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/bridge\.nodeUrl: required by --bridge on a fleet store when listening on 0\.0\.0\.0:0/);
  });
});
