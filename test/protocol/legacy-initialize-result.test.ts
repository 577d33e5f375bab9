import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_LEGACY_VERSIONS, legacyInitializeResult } from '../../server/protocol/legacy-initialize-result.js';
import { modernizeLegacyRequest } from '../../server/protocol/modernize-legacy-request.js';
import { META_SERVER_INFO } from '../../server/protocol/versions.js';
import type { Peer } from '../peers/listen-peer.js';
import { answerOf } from '../support/answer-of.js';
import { startV2Server } from '../peers/v2-server.js';

const DISCOVERED = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true }, resources: {} },
  instructions: 'Use search first.',
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { [META_SERVER_INFO]: { name: 'docs', version: '3.1.0' } },
};

describe('legacyInitializeResult', () => {
  it('answers at the version the client asked for when the bridge speaks it, with the discovered server', () => {
    for (const version of BRIDGE_LEGACY_VERSIONS) {
      expect(legacyInitializeResult(version, DISCOVERED)).toEqual({
        protocolVersion: version,
        capabilities: DISCOVERED.capabilities,
        serverInfo: { name: 'docs', version: '3.1.0' },
        instructions: 'Use search first.',
      });
    }
  });

  it('offers its newest legacy version for one it does not speak, and never a modern one', () => {
    for (const asked of ['2026-07-28', 'DRAFT-2025-v3', '1999-01-01', undefined, 42]) {
      expect(legacyInitializeResult(asked, DISCOVERED)?.protocolVersion).toBe(BRIDGE_LEGACY_VERSIONS[0]);
    }
  });

  it('does not invent a result from something that is not a DiscoverResult, nor a server name it was not given', () => {
    expect(legacyInitializeResult('2025-11-25', { tools: [] })).toBeUndefined();
    expect(legacyInitializeResult('2025-11-25', null)).toBeUndefined();
    const { _meta: _, instructions: __, ...anonymous } = DISCOVERED;
    expect(legacyInitializeResult('2025-11-25', anonymous)).toEqual({ protocolVersion: '2025-11-25', capabilities: DISCOVERED.capabilities, serverInfo: { name: 'unknown', version: 'unknown' } });
  });

  describe('from a real modern-only server, against what a dual-era server answers itself', () => {
    let modern: Peer;
    let dual: Peer;
    beforeAll(async () => {
      [modern, dual] = await Promise.all([startV2Server('modern'), startV2Server('dual')]);
    });
    afterAll(async () => {
      await Promise.all([modern?.close(), dual?.close()]);
    });

    it('the bridged initialize result equals the dual-era server\'s own, but for the server\'s name', async () => {
      const handshake = { clientCapabilities: {}, clientInfo: { name: 'legacy-client', version: '1.0.0' } };
      const { message, headers } = modernizeLegacyRequest({ id: 1, method: 'server/discover' }, handshake);
      const discovered = await fetch(modern.url, { method: 'POST', headers, body: JSON.stringify(message) });
      const bridged = legacyInitializeResult('2025-11-25', (await answerOf(discovered)).result);

      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: handshake.clientInfo } };
      const direct = await fetch(dual.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) });
      const own = (await answerOf(direct)).result!;

      expect(bridged).toEqual({ ...own, serverInfo: { ...(own.serverInfo as object), name: 'v2-modern-peer' } });
    });
  });
});
