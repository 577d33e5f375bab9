import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openBridgeSession } from '../../server/bridge/open-bridge-session.js';
import { sealBridgeSession } from '../../server/bridge/seal-bridge-session.js';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { bridgeRingFromConfig } from '../../server/cli/bridge-ring-from-config.js';
import { ConfigError, loadConfig } from '../../server/config/load-config.js';

const NOW = Date.UTC(2026, 11, 2, 12);
const session = { id: 's1', version: '2025-11-25', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, issuedAt: NOW, expiresAt: NOW + 3_600_000 };

function configWith(bridge: Record<string, unknown>, env: Record<string, string> = {}) {
  return loadConfig({ file: { bridge }, env, flags: { node: 'n' } });
}

describe('the bridge key from the settings', () => {
  it('comes from MCP_SUNSET_BRIDGE_KEY over the file, and a rotated key opens its sessions until its date only', () => {
    const old = randomBytes(32);
    const current = randomBytes(32);
    const config = configWith(
      { enabled: true, key: randomBytes(32).toString('hex'), previousKeys: [{ key: old.toString('hex'), acceptedUntil: new Date(NOW + 60_000).toISOString() }] },
      { MCP_SUNSET_BRIDGE_KEY: current.toString('hex') },
    );
    const ring = bridgeRingFromConfig(config.bridge);
    const sealedByOld = sealBridgeSession(new BridgeKeyRing(old), session);
    const sealedByCurrent = sealBridgeSession(new BridgeKeyRing(current), session);
    if (!sealedByOld.ok || !sealedByCurrent.ok) throw new Error('sealing failed');
    expect(openBridgeSession(ring, sealedByCurrent.token, NOW)).toMatchObject({ ok: true, stale: false });
    expect(openBridgeSession(ring, sealedByOld.token, NOW)).toMatchObject({ ok: true, stale: true });
    expect(openBridgeSession(ring, sealedByOld.token, NOW + 120_000)).toEqual({ ok: false, reason: 'key-retired' });
  });

  it('stops the start with the setting named when the key is missing, short or not hex', () => {
    expect(() => bridgeRingFromConfig(configWith({ enabled: true }).bridge)).toThrow(ConfigError);
    expect(() => bridgeRingFromConfig(configWith({ enabled: true }).bridge)).toThrow(/^bridge\.key: required by --bridge/);
    expect(() => configWith({}, { MCP_SUNSET_BRIDGE_KEY: 'ab'.repeat(16) })).toThrow(/^bridge\.key: must be at least 32 bytes/);
    expect(() => configWith({}, { MCP_SUNSET_BRIDGE_KEY: 'zz'.repeat(32) })).toThrow(/^bridge\.key: expected hex/);
    expect(() => configWith({ previousKeys: [{ key: 'ab'.repeat(32), acceptedUntil: 'soon' }] })).toThrow(/^bridge\.previousKeys\.0\.acceptedUntil/);
  });
});
