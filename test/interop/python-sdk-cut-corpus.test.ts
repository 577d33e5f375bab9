import { afterAll, beforeAll, describe, inject, test } from 'vitest';
import { startPythonServer, type PythonServer } from '../peers/python-sdk-server.js';
import { checkCorpus, corpusSettings, countsHold, cutHolds, describeCorpus, openLegacySession, type ServedSource, type Target } from '../support/cut-corpus-check.js';
import { dayFromNow as day, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * The cut corpus property (test/support/cut-corpus-check.ts, as test/integration/cut-corpus-property.test.ts
 * runs it against the JS SDK) against the official Python SDK server (mcp 2.3.0), in its sessionful
 * default and its stateless configuration, the sidecar in front. Past a deny cut on the legacy
 * era nothing is served on the server's legacy leg, and what it serves on its modern leg is counted
 * modern; without a cut every served message is counted in the era it was served in (the one
 * documented counting rule, an envelope counted modern by its body, aside).
 *
 * What "served" means here is the server's own log (test/peers/python/server.py), read as it is,
 * nothing mapped and nothing left out: a `served` line is a message the SDK's protocol layer took
 * (its server middleware saw it, as the JS peers' logs record what their transports delivered),
 * with the era of the connection it was served on. Two readings of that are the Python SDK's own:
 * - For Streamable HTTP the connection's era is the leg the MCP-Protocol-Version header alone
 *   routed the request to (the first such header as sent: a modern value goes to the modern
 *   single-exchange entry; none or a handshake version to the legacy transport). So a request whose
 *   body carries the modern envelope but arrives without the header is served on the legacy leg and
 *   is legacy here, as in the JS SDK's legacy session; without a cut the sidecar counts it modern by
 *   its envelope, the one rule countsHold allows.
 * - `initialize` is logged legacy on either leg (it opens a handshake). The modern entry hands an
 *   `initialize` that passes its envelope ladder to the protocol layer, whose middleware logs it
 *   before the method table answers -32601; that is a line "legacy:initialize" the modern leg never
 *   served. Kept as logged: past a cut it can only make the property fail where it should not,
 *   never pass where it should not, and the sidecar counts every `initialize` legacy anyway.
 *
 * CUT_CORPUS_RUNS, CUT_CORPUS_SEED and CUT_CORPUS_SURVEY work as in the JS suite, with its
 * defaults: 500 variants per server past the cut, a third of that without (about 40 s in all).
 */
const SETTINGS = corpusSettings(500);
const RUNS = SETTINGS.runs;
const SUPPORTED = { supportedVersions: ['2026-07-28', '2025-11-25'] };
const SERVERS = ['sessionful', 'stateless'] as const;
type ServerName = (typeof SERVERS)[number];

/** The Python server's log of served messages, as the property reads a ServedLog. */
function servedLogOf(server: PythonServer): ServedSource {
  return {
    mark: () => server.served().length,
    since: (mark) => server.served().slice(mark).map((entry) => ({ era: entry.era, method: entry.method, id: entry.id })),
  };
}

interface Rig {
  servers: Partial<Record<ServerName, PythonServer>>;
  services: TestService[];
}

/** The sidecar in front of one Python server at its endpoint `/mcp`; for the sessionful one, with a legacy session opened through it. */
async function sidecarTarget(rig: Rig, python: string, name: ServerName): Promise<Target> {
  const server = await startPythonServer(python, { stateless: name === 'stateless' });
  rig.servers[name] = server;
  const service = await startTestService(new URL('/mcp', server.origin), { enforcement: SUPPORTED });
  rig.services.push(service);
  const target: Target = { name: `sidecar → Python SDK ${name}`, origin: new URL(service.sidecarUrl).origin, served: servedLogOf(server), totals: () => trafficTotals(service, 'era') };
  if (name === 'sessionful') target.liveSessionId = await openLegacySession(service);
  return target;
}

async function stopRig(rig: Rig): Promise<void> {
  for (const service of rig.services) await service.dispose();
  for (const server of Object.values(rig.servers)) await server.close();
}

beforeAll(() => {
  console.log(describeCorpus(SETTINGS, SERVERS.map((name) => `Python SDK (mcp 2.3.0) ${name}`)));
});

describe('past a deny cut on the legacy era, whatever the Python SDK server served the sidecar judged modern and counted so', () => {
  const python = inject('interopPython');
  const rig: Rig = { servers: {}, services: [] };
  const targets = {} as Record<ServerName, Target>;
  beforeAll(async () => {
    for (const name of SERVERS) targets[name] = await sidecarTarget(rig, python, name);
    // The session is open; now the cut.
    for (const service of rig.services) await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
  });
  afterAll(() => stopRig(rig));

  test.each(SERVERS)('against the %s server', async (name) => {
    await checkCorpus(targets[name], cutHolds, RUNS, SETTINGS);
  });
});

describe('without a cut, every message the Python SDK server served is counted in the era it served it in', () => {
  const python = inject('interopPython');
  const rig: Rig = { servers: {}, services: [] };
  const targets = {} as Record<ServerName, Target>;
  beforeAll(async () => {
    for (const name of SERVERS) targets[name] = await sidecarTarget(rig, python, name);
  });
  afterAll(() => stopRig(rig));

  test.each(SERVERS)('against the %s server', async (name) => {
    await checkCorpus(targets[name], countsHold, Math.ceil(RUNS / 3), SETTINGS);
  });
});
