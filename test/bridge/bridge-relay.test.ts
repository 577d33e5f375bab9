import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { channelToken, inputRequestId, readChannelToken, readInputRequestId } from '../../server/bridge/bridge-relay.js';

const NOW = Date.now();
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const oldRing = new BridgeKeyRing(oldKey);
const rotated = new BridgeKeyRing(newKey, [{ secret: oldKey, acceptedUntil: NOW + 3_600_000 }]);
const stranger = new BridgeKeyRing(randomBytes(32));

describe('the ids and tokens bridge nodes pass between them', () => {
  it('an input request id names its node and method, for any node holding the key', () => {
    const id = inputRequestId(oldRing, 'http://10.0.0.5:8808', 'elicitation/create');
    expect(readInputRequestId(oldRing, id, NOW)).toEqual({ node: 'http://10.0.0.5:8808', method: 'elicitation/create' });
    // A node already on the new key still trusts what one on the old key made, mid-rotation.
    expect(readInputRequestId(rotated, id, NOW)).toEqual({ node: 'http://10.0.0.5:8808', method: 'elicitation/create' });
    expect(readInputRequestId(stranger, id, NOW)).toBeUndefined();
    expect(readInputRequestId(oldRing, id.replace('.', '.x'), NOW)).toBeUndefined();
    expect(readInputRequestId(oldRing, inputRequestId(oldRing, '', 'roots/list'), NOW)).toEqual({ node: undefined, method: 'roots/list' });
  });

  it('a channel token names its channel and node; a changed one is refused', () => {
    const token = channelToken(rotated, 'http://a:1', 'chan');
    expect(readChannelToken(rotated, token, NOW)).toEqual({ node: 'http://a:1', channelId: 'chan' });
    expect(readChannelToken(oldRing, channelToken(oldRing, 'http://a:1', 'chan'), NOW)).toEqual({ node: 'http://a:1', channelId: 'chan' });
    expect(readChannelToken(rotated, channelToken(oldRing, 'http://a:1', 'chan'), NOW)).toEqual({ node: 'http://a:1', channelId: 'chan' });
    const [prefix, where, , mac] = token.split('.');
    expect(readChannelToken(rotated, [prefix, where, 'other', mac].join('.'), NOW)).toBeUndefined();
    expect(readChannelToken(stranger, token, NOW)).toBeUndefined();
    expect(readChannelToken(rotated, null, NOW)).toBeUndefined();
  });

  it('an id or token made under a previous key is read only until that key\'s acceptedUntil', () => {
    const id = inputRequestId(oldRing, 'http://a:1', 'roots/list');
    const token = channelToken(oldRing, 'http://a:1', 'chan');
    expect(readInputRequestId(rotated, id, NOW + 3_600_000)).toEqual({ node: 'http://a:1', method: 'roots/list' });
    expect(readInputRequestId(rotated, id, NOW + 3_600_001)).toBeUndefined();
    expect(readChannelToken(rotated, token, NOW + 3_600_001)).toBeUndefined();
    // The current key has no end.
    expect(readChannelToken(rotated, channelToken(rotated, 'http://a:1', 'chan'), NOW + 10 * 3_600_000)).toEqual({ node: 'http://a:1', channelId: 'chan' });
  });

  it('reading never throws, whatever a client sends', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      readInputRequestId(rotated, text, NOW);
      readChannelToken(rotated, text, NOW);
    }));
    fc.assert(fc.property(fc.jsonValue(), (value) => void readInputRequestId(rotated, value, NOW)));
  });
});
