import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routeBridgeRequest, type BridgeTarget } from '../../server/bridge/route-bridge-request.js';
import type { RelayKind } from '../../server/bridge/seal-node-relay.js';

const A = 'http://a:8808';
const B = 'http://b:8808';

describe('who gates, counts and answers a bridged request', () => {
  it('a client\'s request is gated and counted where it lands, and answered by the node that can', () => {
    expect(routeBridgeRequest({ self: A, relayed: undefined, target: { kind: 'other' } })).toEqual({ gates: true, counts: true, answer: { by: 'here' } });
    expect(routeBridgeRequest({ self: A, relayed: undefined, target: { kind: 'subscribe', home: B } })).toEqual({ gates: true, counts: true, answer: { by: 'relay', kind: 'subscribe', to: B } });
    expect(routeBridgeRequest({ self: A, relayed: undefined, target: { kind: 'listen', home: A } })).toEqual({ gates: true, counts: true, answer: { by: 'here' } });
    expect(routeBridgeRequest({ self: A, relayed: undefined, target: { kind: 'answer', waiting: false, asker: B } })).toEqual({ gates: true, counts: true, answer: { by: 'relay', kind: 'answer', to: B } });
    // This node waits for it: answered here, whoever the id names.
    expect(routeBridgeRequest({ self: A, relayed: undefined, target: { kind: 'answer', waiting: true, asker: B } }).answer).toEqual({ by: 'here' });
  });

  it('an HTTP+SSE message is gated and counted on the node holding its channel, not where it landed', () => {
    expect(routeBridgeRequest({ self: A, relayed: undefined, target: { kind: 'channel-message', holder: B } })).toEqual({ gates: false, counts: false, answer: { by: 'relay', kind: 'channel', to: B } });
    expect(routeBridgeRequest({ self: B, relayed: 'channel', target: { kind: 'channel-message', holder: B } })).toEqual({ gates: true, counts: true, answer: { by: 'here' } });
    expect(routeBridgeRequest({ self: B, relayed: undefined, target: { kind: 'channel-message', holder: B } })).toEqual({ gates: true, counts: true, answer: { by: 'here' } });
  });

  it('a relay is answered where it was sent, never gated or counted again, and refused for anything but what it is for', () => {
    expect(routeBridgeRequest({ self: B, relayed: 'subscribe', target: { kind: 'subscribe', home: B } })).toEqual({ gates: false, counts: false, answer: { by: 'here' } });
    expect(routeBridgeRequest({ self: B, relayed: 'answer', target: { kind: 'other' } }).answer).toEqual({ by: 'refuse', why: 'a answer relay cannot carry a other' });
    expect(routeBridgeRequest({ self: B, relayed: 'listen', target: { kind: 'subscribe', home: B } }).answer.by).toBe('refuse');
  });

  it('a relay that would be relayed again is refused: one hop', () => {
    expect(routeBridgeRequest({ self: B, relayed: 'subscribe', target: { kind: 'subscribe', home: A } }).answer).toEqual({ by: 'refuse', why: 'a relayed request is not relayed again' });
    expect(routeBridgeRequest({ self: B, relayed: 'channel', target: { kind: 'channel-message', holder: A } }).answer.by).toBe('refuse');
  });

  it('for any facts: counted exactly where gated, counted once along any relay, and never relayed twice', () => {
    const node = fc.constantFrom(A, B, '', undefined);
    const target: fc.Arbitrary<BridgeTarget> = fc.oneof(
      fc.record({ kind: fc.constant('channel-message' as const), holder: fc.constantFrom(A, B, '') }),
      fc.record({ kind: fc.constant('listen' as const), home: node }),
      fc.record({ kind: fc.constant('subscribe' as const), home: node }),
      fc.record({ kind: fc.constant('answer' as const), waiting: fc.boolean(), asker: node }),
      fc.constant({ kind: 'other' as const }),
    );
    fc.assert(fc.property(fc.constantFrom(A, B), target, (self, t) => {
      const first = routeBridgeRequest({ self, relayed: undefined, target: t });
      expect(first.gates).toBe(first.counts);
      if (first.answer.by !== 'relay') {
        expect(first.counts).toBe(true);
        return;
      }
      // The node it is relayed to sees the same target, as a relay of that kind.
      const second = routeBridgeRequest({ self: first.answer.to, relayed: first.answer.kind as RelayKind, target: t });
      expect(second.gates).toBe(second.counts);
      expect(Number(first.counts) + Number(second.counts)).toBe(1);
      expect(second.answer.by).not.toBe('relay');
    }));
  });
});
