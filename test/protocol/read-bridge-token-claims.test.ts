import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import type { BridgeSession } from '../../server/bridge/bridge-session.js';
import { sealBridgeSession } from '../../server/bridge/seal-bridge-session.js';
import { MAX_BRIDGE_TOKEN_CHARS, readBridgeTokenClaims } from '../../server/protocol/read-bridge-token-claims.js';

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);
const HOUR = 3_600_000;

const session = (overrides: Partial<BridgeSession> = {}): BridgeSession => ({
  id: 'c2Vzc2lvbi1vbmU',
  version: '2025-06-18',
  clientCapabilities: { elicitation: {} },
  clientInfo: { name: 'claude-code', version: '2.1.0' },
  issuedAt: NOW,
  expiresAt: NOW + 24 * HOUR,
  ...overrides,
});

function seal(s: BridgeSession = session()): string {
  const sealed = sealBridgeSession(new BridgeKeyRing(randomBytes(32)), s);
  if (!sealed.ok) throw new Error(sealed.reason);
  return sealed.token;
}

/** A token of the bridge's shape around any payload text. */
const tokenAround = (payload: string) => `mss1.abcdefgh.${Buffer.from(payload).toString('base64url')}.bWFj`;

describe('readBridgeTokenClaims', () => {
  test('reads the session id and expiry of a token any key sealed, without that key', () => {
    expect(readBridgeTokenClaims(seal())).toEqual({ sessionId: 'c2Vzc2lvbi1vbmU', expiresAt: NOW + 24 * HOUR });
  });

  test('reads a payload with non-ASCII client info as the sealer wrote it', () => {
    const token = seal(session({ id: 'x-_9', clientInfo: { name: 'Zürich — 客户端 🚀', version: '1' } }));
    expect(readBridgeTokenClaims(token)).toEqual({ sessionId: 'x-_9', expiresAt: NOW + 24 * HOUR });
  });

  test('agrees with the sealer on every session id and expiry it can seal', () => {
    fc.assert(
      fc.property(fc.base64String({ minLength: 4, maxLength: 64 }), fc.integer({ min: 0, max: 2 ** 50 }), fc.string(), (raw, expiresAt, name) => {
        const id = Buffer.from(raw, 'base64').toString('base64url') || 'A';
        expect(readBridgeTokenClaims(seal(session({ id, expiresAt, clientInfo: { name, version: '1' } })))).toEqual({ sessionId: id, expiresAt });
      }),
    );
  });

  test.each([
    ['an empty string', ''],
    ['a bare session id', 'c2Vzc2lvbi1vbmU'],
    ['three parts', 'mss1.abc.def'],
    ['five parts', 'mss1.a.b.c.d'],
    ['another format', `mss2.${seal().slice(5)}`],
    ['an empty part', 'mss1..eyJpIjoiYSIsImUiOjF9.bWFj'],
    ['a character outside base64url', 'mss1.abc+.eyJpIjoiYSIsImUiOjF9.bWFj'],
    ['a payload that is not JSON', tokenAround('not json')],
    ['a payload that is not UTF-8', `mss1.abc.${Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url')}.bWFj`],
    ['a payload that is an array', tokenAround('[1,2]')],
    ['no session id', tokenAround('{"e":1}')],
    ['a session id that is not base64url', tokenAround('{"i":"a b","e":1}')],
    ['a session id too long to be the bridge\'s', tokenAround(`{"i":"${'a'.repeat(129)}","e":1}`)],
    ['no expiry', tokenAround('{"i":"abc"}')],
    ['an expiry that is a string', tokenAround('{"i":"abc","e":"1"}')],
    ['a fractional expiry', tokenAround('{"i":"abc","e":1.5}')],
    ['a negative expiry', tokenAround('{"i":"abc","e":-1}')],
    ['a token longer than the bridge seals', tokenAround(`{"i":"abc","e":1,"pad":"${'x'.repeat(MAX_BRIDGE_TOKEN_CHARS)}"}`)],
  ])('answers undefined for %s', (_name, token) => {
    expect(readBridgeTokenClaims(token)).toBeUndefined();
  });
});
