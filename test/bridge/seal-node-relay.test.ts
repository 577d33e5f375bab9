import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { openNodeRelay, RELAY_WINDOW_MS, sealNodeRelay, type RelayFacts } from '../../server/bridge/seal-node-relay.js';

const NOW = Date.UTC(2026, 11, 7, 12);
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const onOld = new BridgeKeyRing(oldKey);
const rotated = new BridgeKeyRing(newKey, [{ secret: oldKey, acceptedUntil: NOW + 60_000 }]);

const facts: RelayFacts = {
  kind: 'subscribe',
  method: 'POST',
  target: '/mcp',
  body: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"demo://a"}}'),
  token: 'mss1.k.p.m',
  caller: '["tok_1","bearer-fingerprint"]',
};
const request = ({ kind: _kind, caller: _caller, ...rest }: RelayFacts) => rest;

describe('a relay between bridge nodes', () => {
  it('is accepted for exactly the request it was sealed for, with the caller it carries', () => {
    const header = sealNodeRelay(onOld, facts, NOW);
    expect(openNodeRelay(onOld, header, request(facts), NOW)).toEqual({ relayed: true, kind: 'subscribe', caller: facts.caller });
    expect(openNodeRelay(rotated, header, request(facts), NOW + 1_000)).toEqual({ relayed: true, kind: 'subscribe', caller: facts.caller });
  });

  it('is refused with another body, method, target or session, as a client\'s own request', () => {
    const header = sealNodeRelay(onOld, facts, NOW);
    const other = [
      { ...request(facts), body: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy"}}') },
      { ...request(facts), method: 'GET' },
      { ...request(facts), target: '/mcp/../echo' },
      { ...request(facts), target: '/mcp?x=1' },
      { ...request(facts), token: 'mss1.k.p.other' },
      { ...request(facts), token: undefined },
    ];
    for (const changed of other) expect(openNodeRelay(onOld, header, changed, NOW)).toMatchObject({ relayed: false, refused: expect.any(String) });
  });

  it('is refused outside its time window, and under a key past its acceptedUntil', () => {
    expect(openNodeRelay(onOld, sealNodeRelay(onOld, facts, NOW - RELAY_WINDOW_MS - 1), request(facts), NOW)).toEqual({ relayed: false, refused: 'outside its time window' });
    expect(openNodeRelay(onOld, sealNodeRelay(onOld, facts, NOW + RELAY_WINDOW_MS + 1), request(facts), NOW).relayed).toBe(false);
    const later = NOW + 120_000;
    expect(openNodeRelay(rotated, sealNodeRelay(onOld, facts, later), request(facts), later).relayed).toBe(false);
    expect(openNodeRelay(rotated, sealNodeRelay(rotated, facts, later), request(facts), later).relayed).toBe(true);
  });

  it('a changed kind or caller breaks the seal', () => {
    const [prefix, , at, caller, mac] = sealNodeRelay(onOld, facts, NOW).split('.');
    expect(openNodeRelay(onOld, [prefix, 'channel', at, caller, mac].join('.'), request(facts), NOW).relayed).toBe(false);
    const forged = Buffer.from('["exempt-partner","static-map"]').toString('base64url');
    expect(openNodeRelay(onOld, [prefix, 'subscribe', at, forged, mac].join('.'), request(facts), NOW).relayed).toBe(false);
  });

  it('reading never throws, whatever a client sends', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(fc.string())), fc.string(), (header, target) => {
      expect(openNodeRelay(rotated, header, { method: 'POST', target, body: undefined, token: undefined }, NOW).relayed).toBe(false);
    }));
  });
});
