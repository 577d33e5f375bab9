import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BridgeKeyRing, bridgeKeyFromHex } from '../../server/bridge/bridge-key-ring.js';
import type { BridgeSession } from '../../server/bridge/bridge-session.js';
import { openBridgeSession } from '../../server/bridge/open-bridge-session.js';
import { MAX_BRIDGE_TOKEN_CHARS, sealBridgeSession } from '../../server/bridge/seal-bridge-session.js';

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);
const HOUR = 3_600_000;
const key = () => randomBytes(32);

const session = (overrides: Partial<BridgeSession> = {}): BridgeSession => ({
  id: 'c2Vzc2lvbi1vbmU',
  version: '2025-06-18',
  clientCapabilities: { elicitation: {}, roots: { listChanged: true } },
  clientInfo: { name: 'claude-code', version: '2.1.0' },
  issuedAt: NOW,
  expiresAt: NOW + 24 * HOUR,
  ...overrides,
});

function seal(ring: BridgeKeyRing, s: BridgeSession = session()): string {
  const sealed = sealBridgeSession(ring, s);
  if (!sealed.ok) throw new Error(sealed.reason);
  return sealed.token;
}

/** Replaces one base64url char at `index` of the token with another, keeping it well-formed. */
function flip(token: string, index: number): string {
  const c = token[index]!;
  return token.slice(0, index) + (c === 'A' ? 'B' : 'A') + token.slice(index + 1);
}

describe('bridge session tokens', () => {
  it('a session bound to a credential opens only with that credential, and the token never carries it', () => {
    const ring = new BridgeKeyRing(key());
    const token = seal(ring, session({ credential: 'Bearer secret-token-1' }));
    expect(Buffer.from(token.split('.')[2]!, 'base64url').toString('utf8')).not.toContain('secret-token-1');
    expect(openBridgeSession(ring, token, NOW, { credential: 'Bearer secret-token-1' })).toMatchObject({ ok: true });
    expect(openBridgeSession(ring, token, NOW, { credential: 'Bearer secret-token-2' })).toEqual({ ok: false, reason: 'other-credential' });
    expect(openBridgeSession(ring, token, NOW, { credential: undefined })).toEqual({ ok: false, reason: 'other-credential' });
    // Opened without a credential presented (to count it, say), it is not checked.
    expect(openBridgeSession(ring, token, NOW)).toMatchObject({ ok: true });
    // One opened without a credential is bound to having none.
    const bare = seal(ring, session({ credential: null }));
    expect(openBridgeSession(ring, bare, NOW, { credential: undefined })).toMatchObject({ ok: true });
    expect(openBridgeSession(ring, bare, NOW, { credential: 'Bearer x' })).toEqual({ ok: false, reason: 'other-credential' });
  });

  it('a sealed session opens to the same session on any node holding the key', () => {
    const secret = key();
    const token = seal(new BridgeKeyRing(secret));
    // Another process: a ring built from the same secret, nothing else shared.
    expect(openBridgeSession(new BridgeKeyRing(Buffer.from(secret)), token, NOW + HOUR)).toEqual({ ok: true, session: session(), stale: false });
    // The home node, when the session has one, travels with it.
    const homed = session({ home: 'http://10.0.0.5:8808' });
    expect(openBridgeSession(new BridgeKeyRing(Buffer.from(secret)), seal(new BridgeKeyRing(secret), homed), NOW)).toEqual({ ok: true, session: homed, stale: false });
  });

  it('is visible ASCII only, as a session id must be, whatever the client info holds', () => {
    const ring = new BridgeKeyRing(key());
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 20 }), (name, version) => {
        const token = seal(ring, session({ clientInfo: { name, version } }));
        expect(token).toMatch(/^[\x21-\x7e]+$/);
        const opened = openBridgeSession(ring, token, NOW);
        expect(opened.ok && opened.session.clientInfo).toEqual({ name, version });
      }),
    );
  });

  it('any change to a token (payload, key id or MAC) is refused, never opened to something else', () => {
    const ring = new BridgeKeyRing(key());
    const token = seal(ring);
    const [prefix, keyId, payload] = token.split('.') as [string, string, string, string];
    const starts = { keyId: prefix.length + 1, payload: prefix.length + keyId.length + 2, mac: prefix.length + keyId.length + payload.length + 3 };
    for (const [part, start] of Object.entries(starts)) {
      const changed = flip(token, start + 2);
      const opened = openBridgeSession(ring, changed, NOW);
      expect(opened.ok, part).toBe(false);
      expect(['forged', 'unknown-key', 'malformed']).toContain(!opened.ok && opened.reason);
    }
    expect(openBridgeSession(ring, flip(token, starts.payload + 5), NOW)).toEqual({ ok: false, reason: 'forged' });
    expect(openBridgeSession(ring, flip(token, starts.mac + 5), NOW)).toEqual({ ok: false, reason: 'forged' });
  });

  it('a token sealed under another key is refused: a made-up session cannot be passed off', () => {
    const mine = new BridgeKeyRing(key());
    const theirs = new BridgeKeyRing(key());
    expect(openBridgeSession(mine, seal(theirs), NOW)).toEqual({ ok: false, reason: 'unknown-key' });
    // Even claiming my key id, without my secret the MAC cannot match.
    const [prefix, , payload, mac] = seal(theirs).split('.');
    expect(openBridgeSession(mine, [prefix, mine.current.id, payload, mac].join('.'), NOW)).toEqual({ ok: false, reason: 'forged' });
  });

  it('expires at its expiry, not a millisecond later', () => {
    const ring = new BridgeKeyRing(key());
    const token = seal(ring);
    expect(openBridgeSession(ring, token, NOW + 24 * HOUR - 1).ok).toBe(true);
    expect(openBridgeSession(ring, token, NOW + 24 * HOUR)).toEqual({ ok: false, reason: 'expired' });
  });

  it('after a rotation the previous key still opens its sessions through the grace period, marked stale, then no longer', () => {
    const oldSecret = key();
    const token = seal(new BridgeKeyRing(oldSecret));
    const graceEnds = NOW + 2 * HOUR;
    const rotated = new BridgeKeyRing(key(), [{ secret: oldSecret, acceptedUntil: graceEnds }]);
    expect(openBridgeSession(rotated, token, graceEnds)).toEqual({ ok: true, session: session(), stale: true });
    expect(openBridgeSession(rotated, token, graceEnds + 1)).toEqual({ ok: false, reason: 'key-retired' });
    // New sessions are sealed with the new key, and are not stale.
    const fresh = seal(rotated);
    expect(openBridgeSession(rotated, fresh, graceEnds + 1)).toMatchObject({ ok: true, stale: false });
  });

  it('whatever a client sends as a session id, opening never throws and never succeeds', () => {
    const ring = new BridgeKeyRing(key());
    const token = seal(ring);
    const noise = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.array(fc.string({ maxLength: 60 }), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('.')),
      fc.string({ maxLength: 60 }).map((tail) => `mss1.${ring.current.id}.${tail}`),
      fc.nat({ max: token.length - 1 }).map((cut) => token.slice(0, cut)),
    );
    fc.assert(
      fc.property(noise, (id) => {
        const opened = openBridgeSession(ring, id, NOW);
        expect(opened.ok).toBe(false);
      }),
    );
  });

  it('a session whose capabilities would not fit in a header is refused at sealing, and an oversized id at opening', () => {
    const ring = new BridgeKeyRing(key());
    const huge = session({ clientCapabilities: { experimental: { blob: 'x'.repeat(MAX_BRIDGE_TOKEN_CHARS) } } });
    expect(sealBridgeSession(ring, huge)).toEqual({ ok: false, reason: 'too-large' });
    expect(openBridgeSession(ring, `mss1.${'a'.repeat(MAX_BRIDGE_TOKEN_CHARS)}`, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('bridge keys', () => {
  it('reads a hex key of at least 32 bytes, and names the setting when it is not one', () => {
    const hex = randomBytes(32).toString('hex');
    expect(bridgeKeyFromHex(` ${hex}\n`, 'MCP_SUNSET_BRIDGE_KEY')).toEqual(Buffer.from(hex, 'hex'));
    expect(() => bridgeKeyFromHex(randomBytes(16).toString('hex'), 'MCP_SUNSET_BRIDGE_KEY')).toThrow(/MCP_SUNSET_BRIDGE_KEY must be at least 32 bytes \(64 hex digits\); it has 16/);
    expect(() => bridgeKeyFromHex('zz'.repeat(32), 'bridge.key')).toThrow(/bridge.key must be hex/);
    expect(() => bridgeKeyFromHex('abc', 'bridge.key')).toThrow(/bridge.key must be hex/);
    expect(() => new BridgeKeyRing(randomBytes(31))).toThrow(/at least 32 bytes/);
  });

  it('nodes given the same secret agree on its key id; a different secret gets another', () => {
    const secret = key();
    expect(new BridgeKeyRing(secret).current.id).toBe(new BridgeKeyRing(Buffer.from(secret)).current.id);
    expect(new BridgeKeyRing(key()).current.id).not.toBe(new BridgeKeyRing(secret).current.id);
  });
});
