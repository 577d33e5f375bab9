import { pino } from 'pino';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { meter, type MeterMiddleware } from '../../server/express/index.js';
import type { Metering, MeteringGaugeSources } from '../../server/metering/create-metering.js';
import { startMeteredApp, type AppKind } from '../express/metered-apps.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { checkCorpus, corpusSettings, countsHold, cutHolds, describeCorpus, openLegacySession, type Target } from '../support/cut-corpus-check.js';
import { dayFromNow as day, legacyPlan, policyInForce, sendPlan } from '../support/enforcement-peers.js';
import { ServedLog } from '../support/served-log.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * The differential property of a cut (test/support/cut-corpus-check.ts), against the Express
 * middleware `meter()` in front of the SDK's own handlers (test/express/metered-apps.ts) rather
 * than the sidecar: each variant goes as raw bytes to the app, the SDK side logs what it served
 * (served-log.ts), and what the middleware counted is read from the store it shares with a test
 * service (whose API is where the plan is made, as in pause-fleet.test.ts).
 *
 * The middleware writes its counts on its flusher's interval and offers no flush of its own: the
 * test keeps the pipeline `createMetering` answers (a pass-through mock, below) and, for each
 * reading, waits until no answer is pending and forces a flush with `flusher.flushNow()`.
 */
const opened = vi.hoisted(() => new Map<string, { metering: unknown; gauges: { pendingAnswers(): number } }>());
vi.mock('../../server/metering/create-metering.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../server/metering/create-metering.js')>();
  const createMetering: typeof original.createMetering = async (config, logger, now, gauges, sidecar) => {
    const metering = await original.createMetering(config, logger, now, gauges, sidecar);
    opened.set(config.node, { metering, gauges });
    return metering;
  };
  return { ...original, createMetering };
});

const SETTINGS = corpusSettings(500);
const RUNS = SETTINGS.runs;
const SUPPORTED = { supportedVersions: ['2026-07-28', '2025-11-25'] };
/**
 * The apps metered-apps.ts offers with a JSON-RPC endpoint the corpus can address: the v1 session
 * app with express.json() before the middleware (the SDK's own createMcpExpressApp parses so), the
 * v2 dual app with the handler reading the stream itself, and with express.json() in front.
 */
const APPS = [
  { name: 'v1-session+json', kind: 'v1-session', json: true },
  { name: 'v2-dual', kind: 'v2-dual', json: false },
  { name: 'v2-dual+json', kind: 'v2-dual', json: true },
] as const satisfies readonly { name: string; kind: AppKind; json: boolean }[];
type AppName = (typeof APPS)[number]['name'];

interface Rig {
  service: TestService;
  upstream: Peer;
  apps: Peer[];
  meters: MeterMiddleware[];
}

/** Every answer the middleware still waits on has been counted, then a flush writes the tally. */
async function flushed(node: string): Promise<void> {
  const pipeline = opened.get(node);
  if (pipeline === undefined) throw new Error(`the middleware of ${node} opened no store`);
  const deadline = Date.now() + 2000;
  while (pipeline.gauges.pendingAnswers() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!(await (pipeline.metering as Metering).flusher.flushNow())) throw new Error(`the flush of ${node} failed`);
}

async function startRig(): Promise<Rig> {
  const upstream = await startV2Server('dual');
  const service = await startTestService(new URL('/mcp', upstream.origin), { enforcement: SUPPORTED });
  return { service, upstream, apps: [], meters: [] };
}

/** One app with the middleware in front, as node `app-<name>` of the store the service reads. */
async function appTarget(rig: Rig, app: (typeof APPS)[number]): Promise<Target> {
  const node = `app-${app.name}`;
  // A long interval: counts are written when the test forces a flush, never behind its back.
  const metered = meter({ db: rig.service.dbPath, node, enforcement: SUPPORTED, flushIntervalMs: 3_600_000, logger: pino({ level: 'silent' }) });
  rig.meters.push(metered);
  const served = new ServedLog();
  const peer = await startMeteredApp(app.kind, { json: app.json, metered, served });
  rig.apps.push(peer);
  const target: Target = {
    name: `middleware → SDK ${app.name} app`,
    origin: peer.origin,
    served,
    totals: async () => {
      await flushed(node);
      return trafficTotals(rig.service, 'era', { node });
    },
  };
  // The store opens in the background; the first request waits for it. openLegacySession reads only the URL it posts to.
  if (app.kind === 'v1-session') target.liveSessionId = await openLegacySession({ sidecarUrl: new URL(peer.origin) } as Pick<TestService, 'sidecarUrl'> as TestService);
  return target;
}

async function stopRig(rig: Rig | undefined): Promise<void> {
  for (const peer of rig?.apps ?? []) await peer.close();
  for (const metered of rig?.meters ?? []) await metered.close();
  await rig?.service.dispose();
  await rig?.upstream.close();
}

beforeAll(() => {
  console.log(describeCorpus(SETTINGS, APPS.map((app) => `middleware → ${app.name}`)));
});

describe('past a deny cut on the legacy era, whatever an SDK handler behind the middleware served the middleware judged modern and counted so', () => {
  let rig: Rig | undefined;
  const targets = {} as Record<AppName, Target>;
  beforeAll(async () => {
    rig = await startRig();
    for (const app of APPS) targets[app.name] = await appTarget(rig, app);
    // The sessions are open; now the cut, in force on every node before the first variant.
    await sendPlan(rig.service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
    const { body } = await rig.service.api<{ policyVersion: number }>('/api/v1/fleet');
    for (const metered of rig.meters) await policyInForce(() => metered.policy()?.version, body.policyVersion);
  });
  afterAll(() => stopRig(rig));

  test.each(APPS.map((app) => app.name))('against the SDK %s app', async (name) => {
    await checkCorpus(targets[name], cutHolds, RUNS, SETTINGS);
  });
});

describe('without a cut, every message an SDK handler behind the middleware served is counted in the era it served it in', () => {
  let rig: Rig | undefined;
  const targets = {} as Record<AppName, Target>;
  beforeAll(async () => {
    rig = await startRig();
    for (const app of APPS) targets[app.name] = await appTarget(rig, app);
  });
  afterAll(() => stopRig(rig));

  test.each(APPS.map((app) => app.name))('against the SDK %s app', async (name) => {
    await checkCorpus(targets[name], countsHold, Math.ceil(RUNS / 3), SETTINGS);
  });
});
