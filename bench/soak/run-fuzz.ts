import { createHash } from 'node:crypto';
import { Agent } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { closeServer } from '../support/close-server.js';
import { listenLoopback } from '../support/listen-loopback.js';
import { createRecordingUpstream } from './create-recording-upstream.js';
import { hostileRequest } from './hostile-request.js';
import { sendHostile, type SendOutcome } from './send-hostile.js';
import { spawnSoakSidecar } from './spawn-soak-sidecar.js';

export interface FuzzResult {
  requests: number;
  seed: number;
  concurrency: number;
  maxBodyBytes: number;
  shapes: Record<string, number>;
  deliveries: Record<string, number>;
  answered: number;
  resets: number;
  timeouts: number;
  /** Whole or chunked bodies within maxBodyBytes: the ones the byte-exact check applies to. */
  eligible: number;
  byteExact: number;
  /** Requests sent in full that the upstream never saw, or saw with other bytes: one example per method and delivery. */
  mismatches: string[];
  /** The same, counted by method and delivery. */
  mismatchesBy: Record<string, number>;
  /** Resets of requests the client sent in full, by method, delivery and error. */
  otherResets: Record<string, number>;
  oversize: number;
  oversizeByteExact: number;
  sidecarAlive: boolean;
  healthStatus: number;
  healthState: string;
  meteringErrors: number;
  events: number;
  nonMcpRequests: number;
  seconds: number;
}

const BATCH = 500;

/** N hostile requests through a sidecar child to a recording upstream; the sidecar must survive and pass every byte. */
export async function runFuzz(options: { requests: number; seed: number; concurrency: number; maxBodyBytes: number; dir: string }): Promise<FuzzResult> {
  const started = Date.now();
  const upstream = createRecordingUpstream();
  const upstreamUrl = await listenLoopback(upstream.server);
  const sidecar = await spawnSoakSidecar({ upstream: upstreamUrl.href, db: join(options.dir, 'fuzz.db'), flushIntervalMs: 1000, maxBodyBytes: options.maxBodyBytes });
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  // Only what the check needs: the bodies themselves would hold hundreds of MiB.
  const sent = new Map<string, { shape: string; method: string; path: string; delivery: string; bytes: number; sha256: string; outcome: SendOutcome }>();
  const arbitrary = hostileRequest(options.maxBodyBytes);
  const result = { shapes: {} as Record<string, number>, deliveries: {} as Record<string, number>, answered: 0, resets: 0, timeouts: 0 };
  const bump = (table: Record<string, number>, key: string) => (table[key] = (table[key] ?? 0) + 1);

  // Generated in batches, each from its own derived seed, so 20 000 requests never sit in memory at once.
  for (let offset = 0; offset < options.requests; offset += BATCH) {
    const batch = fc.sample(arbitrary, { seed: options.seed + offset, numRuns: Math.min(BATCH, options.requests - offset) });
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const index = next++;
        const hostile = batch[index]!;
        const id = String(offset + index);
        const outcome = await sendHostile(sidecar.url, agent, id, hostile);
        bump(result.shapes, hostile.shape);
        bump(result.deliveries, hostile.delivery);
        if (outcome.kind === 'answered') result.answered += 1;
        else if (outcome.kind === 'reset') result.resets += 1;
        else result.timeouts += 1;
        const { shape, method, path, delivery } = hostile;
        sent.set(id, { shape, method, path, delivery, bytes: hostile.body.length, sha256: createHash('sha256').update(hostile.body).digest('hex'), outcome });
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  }
  agent.destroy();

  let eligible = 0;
  let byteExact = 0;
  let oversize = 0;
  let oversizeByteExact = 0;
  const mismatches: string[] = [];
  const mismatchesBy: Record<string, number> = {};
  const otherResets: Record<string, number> = {};
  for (const [id, entry] of sent) {
    if (entry.delivery === 'half') continue;
    if (entry.outcome.kind !== 'answered') bump(otherResets, `${entry.method} ${entry.delivery} ${entry.outcome.kind === 'reset' ? entry.outcome.error : 'timeout'}`);
    const { bytes } = entry;
    const got = upstream.received.get(id);
    const exact = got !== undefined && got.bytes === bytes && got.sha256 === entry.sha256;
    const group = `${entry.method} ${entry.delivery}${bytes > options.maxBodyBytes ? ' over maxBodyBytes' : ''}`;
    if (!exact) {
      // One example per group, so a rare kind of miss is not hidden behind a common one.
      if (mismatchesBy[group] === undefined) mismatches.push(`${entry.method} ${entry.path.slice(0, 40)} ${entry.shape} ${entry.delivery} ${bytes} B → upstream ${got === undefined ? 'never saw it' : `got ${got.bytes} B`} (client: ${entry.outcome.kind}${entry.outcome.kind === 'answered' ? ` ${entry.outcome.status}` : ''})`);
      bump(mismatchesBy, group);
    }
    if (bytes > options.maxBodyBytes) {
      oversize += 1;
      if (exact) oversizeByteExact += 1;
      continue;
    }
    eligible += 1;
    if (exact) byteExact += 1;
  }

  const sidecarAlive = sidecar.alive();
  let healthStatus = 0;
  let health: { status?: string; metering?: { meteringErrors?: number; events?: number; nonMcpRequests?: number } } = {};
  try {
    const response = await fetch(new URL('/healthz', sidecar.apiUrl));
    healthStatus = response.status;
    health = (await response.json()) as typeof health;
  } catch {
    healthStatus = 0;
  }
  await sidecar.stop();
  await closeServer(upstream.server);
  return {
    requests: options.requests,
    seed: options.seed,
    concurrency: options.concurrency,
    maxBodyBytes: options.maxBodyBytes,
    ...result,
    eligible,
    byteExact,
    mismatches,
    mismatchesBy,
    otherResets,
    oversize,
    oversizeByteExact,
    sidecarAlive,
    healthStatus,
    healthState: health.status ?? 'unknown',
    meteringErrors: health.metering?.meteringErrors ?? -1,
    events: health.metering?.events ?? -1,
    nonMcpRequests: health.metering?.nonMcpRequests ?? -1,
    seconds: (Date.now() - started) / 1000,
  };
}
