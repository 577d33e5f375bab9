import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SseServer } from '../peers/v1-sse-server.js';
import { checkCorpus, corpusSettings, countsHold, cutHolds, describeCorpus, type Holds, type Target } from '../support/cut-corpus-check.js';
import type { CutVariant, PathForm } from '../support/cut-corpus.js';
import { dayFromNow as day, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { ServedLog } from '../support/served-log.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * The differential property of a cut (test/support/cut-corpus-check.ts) against the v1 SDK's
 * HTTP+SSE server (2024-11-05) behind the sidecar: a stream is opened through the sidecar first,
 * and every variant is a POST to the message endpoint its `endpoint` event named,
 * `/messages?sessionId=…`, which the SDK serves on that stream's session (its own log says what it
 * served, always on its legacy path).
 *
 * Fixed dimension: the path. A variant's request-target is the live channel's message endpoint,
 * query and all: without its `sessionId` the SDK serves nothing (404), and the path forms of the
 * corpus (`/MCP`, `/mcp;x`, …) name the Streamable HTTP endpoint, which this server does not
 * have. Everything else (headers, framing, content coding, charset, JSON spelling, batches,
 * credentials) applies as drawn; a `live` session header names the channel's session id.
 */
const SETTINGS = corpusSettings(400);
const RUNS = SETTINGS.runs;
const SUPPORTED = { supportedVersions: ['2026-07-28', '2025-11-25'] };

interface Channel {
  endpoint: string;
  sessionId: string;
  stream: IncomingMessage;
  open: boolean;
}

/** Opens an HTTP+SSE stream through the sidecar and reads the message endpoint from its first event. */
function openChannel(service: TestService): Promise<Channel> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/sse', service.sidecarUrl), { headers: { accept: 'text/event-stream' } }, (stream) => {
      if (stream.statusCode !== 200) return reject(new Error(`no stream: ${stream.statusCode}`));
      let text = '';
      const onData = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const endpoint = /event: endpoint\r?\ndata: ([^\r\n]+)/.exec(text)?.[1];
        if (endpoint === undefined) return;
        // The answers keep coming on the stream; they are read and dropped.
        stream.off('data', onData);
        stream.resume();
        const channel: Channel = { endpoint, sessionId: new URL(endpoint, 'http://x').searchParams.get('sessionId')!, stream, open: true };
        stream.on('close', () => {
          channel.open = false;
        });
        resolve(channel);
      };
      stream.on('data', onData);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Rig {
  peer: Peer;
  service: TestService;
  channel: Channel;
  target: Target;
}

async function startRig(): Promise<Rig> {
  const served = new ServedLog();
  const peer = await startV1SseServer({ served });
  const service = await startTestService(new URL(peer.origin), { enforcement: SUPPORTED });
  const channel = await openChannel(service);
  const target: Target = { name: 'sidecar → SDK v1 HTTP+SSE message endpoint', origin: new URL(service.sidecarUrl).origin, served, totals: () => trafficTotals(service, 'era'), liveSessionId: channel.sessionId };
  return { peer, service, channel, target };
}

async function stopRig(rig: Rig | undefined): Promise<void> {
  rig?.channel.stream.destroy();
  await rig?.service.dispose();
  await rig?.peer.close();
}

/** The property, on the channel's message endpoint rather than the path the variant drew. */
const onChannel = (holds: Holds, channel: Channel): Holds => (target, variant) => holds(target, { ...variant, path: channel.endpoint as PathForm } satisfies CutVariant);

beforeAll(() => {
  console.log(describeCorpus(SETTINGS, ['sidecar → v1 HTTP+SSE (message endpoint of a live stream; path fixed)']));
});

describe('past a deny cut on the legacy era, nothing posted to a live HTTP+SSE channel is served', () => {
  let rig: Rig | undefined;
  beforeAll(async () => {
    rig = await startRig();
    // The stream is open; now the cut.
    await sendPlan(rig.service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
  });
  afterAll(() => stopRig(rig));

  test('against the SDK v1 HTTP+SSE server', async () => {
    await checkCorpus(rig!.target, onChannel(cutHolds, rig!.channel), RUNS, SETTINGS);
    console.log(`HTTP+SSE channel still open after the corpus under the cut: ${rig!.channel.open}`);
  });
});

describe('without a cut, every message the HTTP+SSE server served is counted legacy', () => {
  let rig: Rig | undefined;
  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(() => stopRig(rig));

  test('against the SDK v1 HTTP+SSE server', async () => {
    const mark = rig!.target.served.mark();
    await checkCorpus(rig!.target, onChannel(countsHold, rig!.channel), Math.ceil(RUNS / 3), SETTINGS);
    // Not vacuous: the channel stayed up and its server served some of the corpus.
    expect(rig!.channel.open).toBe(true);
    expect(rig!.target.served.since(mark).length).toBeGreaterThan(0);
  });
});
