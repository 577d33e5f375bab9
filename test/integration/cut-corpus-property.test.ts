import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { checkCorpus, corpusSettings, countsHold, cutHolds, describeCorpus, openLegacySession, type Target } from '../support/cut-corpus-check.js';
import { dayFromNow as day, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { startHeaderTrustingProxy, type HeaderTrustingProxy } from '../support/header-trusting-proxy.js';
import { ServedLog } from '../support/served-log.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * The differential property of a cut: whatever a real SDK server served, the sidecar judged
 * modern and counted as what the server served. Each variant of the corpus (test/support/cut-corpus.ts)
 * is sent as raw bytes through the real sidecar to a real server whose own log (served-log.ts)
 * says which messages it served and on which path. Past a deny cut on the legacy era, a message
 * the server served on its legacy path is a bypass; one it served on its modern path must be
 * counted modern. Without a cut, every served message must be counted in the era it was served in.
 * A sidecar that judges on headers it does not pass on must be caught (the negative control).
 *
 * CUT_CORPUS_RUNS sets the variants per property (default below); CUT_CORPUS_SEED replays a run;
 * CUT_CORPUS_SURVEY=1 reports every kind of failure rather than the first (see checkCorpus in
 * test/support/cut-corpus-check.ts, which holds the property's machinery).
 */
const SETTINGS = corpusSettings(500);
const RUNS = SETTINGS.runs;
/** The control runs on a fixed seed, so that it finds (or misses) the same counterexample every time. */
const CONTROL_RUNS = 600;
const CONTROL_SEED = 20261207;
const SUPPORTED = { supportedVersions: ['2026-07-28', '2025-11-25'] };
const SERVERS = ['v1-session', 'v2-dual', 'v2-modern'] as const;
type ServerName = (typeof SERVERS)[number];

interface Rig {
  peers: Record<ServerName, Peer>;
  logs: Record<ServerName, ServedLog>;
  services: TestService[];
}

async function startPeers(): Promise<Pick<Rig, 'peers' | 'logs'>> {
  const logs = { 'v1-session': new ServedLog(), 'v2-dual': new ServedLog(), 'v2-modern': new ServedLog() };
  const peers = {
    'v1-session': await startV1SessionServer({ served: logs['v1-session'] }),
    'v2-dual': await startV2Server('dual', { served: logs['v2-dual'] }),
    'v2-modern': await startV2Server('modern', { served: logs['v2-modern'] }),
  };
  return { peers, logs };
}

/** The sidecar in front of one server at its endpoint `/mcp`, with a legacy session opened through it. */
async function sidecarTarget(rig: Rig, name: ServerName): Promise<Target> {
  const service = await startTestService(new URL('/mcp', rig.peers[name].origin), { enforcement: SUPPORTED });
  rig.services.push(service);
  const target: Target = { name: `sidecar → SDK ${name}`, origin: new URL(service.sidecarUrl).origin, served: rig.logs[name], totals: () => trafficTotals(service, 'era') };
  if (name === 'v1-session') target.liveSessionId = await openLegacySession(service);
  return target;
}

async function stopRig(rig: Rig | undefined): Promise<void> {
  for (const service of rig?.services ?? []) await service.dispose();
  for (const peer of Object.values(rig?.peers ?? {})) await peer.close();
}

beforeAll(() => {
  console.log(describeCorpus(SETTINGS, SERVERS));
});

describe('past a deny cut on the legacy era, whatever a server served the sidecar judged modern and counted so', () => {
  let rig: Rig | undefined;
  const targets = {} as Record<ServerName, Target>;
  beforeAll(async () => {
    rig = { ...(await startPeers()), services: [] };
    for (const name of SERVERS) targets[name] = await sidecarTarget(rig, name);
    // The sessions are open; now the cut.
    for (const service of rig.services) await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
  });
  afterAll(() => stopRig(rig));

  test.each(SERVERS)('against the SDK %s server', async (name) => {
    await checkCorpus(targets[name], cutHolds, RUNS, SETTINGS);
  });
});

describe('without a cut, every message a server served is counted in the era it served it in', () => {
  let rig: Rig | undefined;
  const targets = {} as Record<ServerName, Target>;
  beforeAll(async () => {
    rig = { ...(await startPeers()), services: [] };
    for (const name of SERVERS) targets[name] = await sidecarTarget(rig, name);
  });
  afterAll(() => stopRig(rig));

  test.each(SERVERS)('against the SDK %s server', async (name) => {
    await checkCorpus(targets[name], countsHold, Math.ceil(RUNS / 3), SETTINGS);
  });
});

describe('negative control: the property catches a sidecar that judges on headers it does not pass on', () => {
  let peer: Peer | undefined;
  let proxy: HeaderTrustingProxy | undefined;
  const served = new ServedLog();
  beforeAll(async () => {
    peer = await startV2Server('dual', { served });
    proxy = await startHeaderTrustingProxy(new URL('/mcp', peer.origin));
  });
  afterAll(async () => {
    await proxy?.close();
    await peer?.close();
  });

  test('in front of the SDK v2 dual-era server, the corpus finds a legacy request it let past', async () => {
    const target: Target = { name: 'header-trusting control → SDK v2-dual', origin: proxy!.origin, served, totals: async () => ({ ...proxy!.counts }) };
    const failure = await checkCorpus(target, cutHolds, CONTROL_RUNS, { ...SETTINGS, seed: CONTROL_SEED }).then(
      () => undefined,
      (error: Error) => `${error.message}\n${(error.cause as Error | undefined)?.message ?? ''}`,
    );
    console.log(`negative control: ${failure?.split('\n').slice(0, 12).join('\n') ?? 'no counterexample'}`);
    expect(failure).toContain('the sidecar let the legacy era past a cut');
    expect(failure).toMatch(/connection="[^"]*mcp-protocol-version/i);
  });
});
