import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { channelToken, inputRequestId, isRelayed, readChannelToken, readInputRequestId, RELAY_HEADER, relayMac } from '../../server/bridge/bridge-relay.js';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const oldRing = new BridgeKeyRing(oldKey);
const rotated = new BridgeKeyRing(newKey, [{ secret: oldKey, acceptedUntil: Date.now() + 3_600_000 }]);
const stranger = new BridgeKeyRing(randomBytes(32));

describe('the ids and tokens bridge nodes pass between them', () => {
  it('an input request id names its node and method, for any node holding the key', () => {
    const id = inputRequestId(oldRing, 'http://10.0.0.5:8808', 'elicitation/create');
    expect(readInputRequestId(oldRing, id)).toEqual({ node: 'http://10.0.0.5:8808', method: 'elicitation/create' });
    // A node already on the new key still trusts what one on the old key made, mid-rotation.
    expect(readInputRequestId(rotated, id)).toEqual({ node: 'http://10.0.0.5:8808', method: 'elicitation/create' });
    expect(readInputRequestId(stranger, id)).toBeUndefined();
    expect(readInputRequestId(oldRing, id.replace('.', '.x'))).toBeUndefined();
    expect(readInputRequestId(oldRing, inputRequestId(oldRing, '', 'roots/list'))).toEqual({ node: undefined, method: 'roots/list' });
  });

  it('a channel token names its channel and node; a changed one is refused', () => {
    const token = channelToken(rotated, 'http://a:1', 'chan');
    expect(readChannelToken(rotated, token)).toEqual({ node: 'http://a:1', channelId: 'chan' });
    expect(readChannelToken(oldRing, channelToken(oldRing, 'http://a:1', 'chan'))).toEqual({ node: 'http://a:1', channelId: 'chan' });
    expect(readChannelToken(rotated, channelToken(oldRing, 'http://a:1', 'chan'))).toEqual({ node: 'http://a:1', channelId: 'chan' });
    const [prefix, where, , mac] = token.split('.');
    expect(readChannelToken(rotated, [prefix, where, 'other', mac].join('.'))).toBeUndefined();
    expect(readChannelToken(stranger, token)).toBeUndefined();
    expect(readChannelToken(rotated, null)).toBeUndefined();
  });

  it('a relayed answer is recognised only with the MAC of its session, under a key held', () => {
    const headers = { 'mcp-session-id': 'mss1.k.p.m', [RELAY_HEADER]: relayMac(oldRing, 'mss1.k.p.m') };
    expect(isRelayed(oldRing, headers, 'mcp-session-id')).toBe(true);
    expect(isRelayed(rotated, headers, 'mcp-session-id')).toBe(true);
    expect(isRelayed(stranger, headers, 'mcp-session-id')).toBe(false);
    expect(isRelayed(oldRing, { ...headers, 'mcp-session-id': 'mss1.k.p.other' }, 'mcp-session-id')).toBe(false);
    expect(isRelayed(oldRing, { 'mcp-session-id': 'mss1.k.p.m' }, 'mcp-session-id')).toBe(false);
  });

  it('reading never throws, whatever a client sends', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      readInputRequestId(rotated, text);
      readChannelToken(rotated, text);
      isRelayed(rotated, { [RELAY_HEADER]: text, 'mcp-session-id': text }, 'mcp-session-id');
    }));
    fc.assert(fc.property(fc.jsonValue(), (value) => void readInputRequestId(rotated, value)));
  });
});
