import { createLegacyStdioBridge } from '../../bridge/legacy-stdio-bridge.js';
import type { Config } from '../../config/config-schema.js';
import { createLogger } from '../../lib/create-logger.js';
import type { Caller } from '../../sidecar/identify-caller.js';
import { ANONYMOUS } from '../../sidecar/identify-caller.js';
import { StdioMeter } from '../../sidecar/stdio-meter.js';
import { wrapStdio } from '../../sidecar/wrap-stdio.js';
import { createMetering } from '../create-metering.js';
import { createPolicyRefresher } from '../../metering/create-policy-refresher.js';

/** The configured name of whoever launches this server; stdio has no credential to fingerprint. */
function callerNamed(name: string | undefined): Caller {
  return name === undefined ? ANONYMOUS : { integration: `stdio:${name}`, source: 'configured-name' };
}

/**
 * Runs a stdio MCP server behind the sidecar: the client launches `mcp-sunset wrap -- <server…>`
 * instead of the server. Counts go to the same database as the HTTP sidecar's, and the retirement
 * plans stored there are enforced on the client's requests. With `--bridge`, legacy clients are
 * answered by the bridge in front of a modern-only server. Exits with the
 * server's exit code once the last counts are flushed.
 */
export async function runWrap(config: Readonly<Config>, command: string[], options: { caller?: string }): Promise<never> {
  const logger = createLogger(config.logLevel, config.db);
  const meter = new StdioMeter<Caller>((observation) => metering.record(observation), { maxOpenBytes: config.caps.pendingAnswersBytes });
  const startedAt = Date.now();
  const metering = await createMetering(
    config,
    logger,
    Date.now,
    { pendingAnswers: () => 0, sessions: () => 0, meterMemory: () => meter.memory() },
    { kind: 'wrap', startedAt, policyVersion: () => policy.current().version, pausedPlans: () => policy.current().pausedPlans(Date.now()).length },
  );
  // Compiled before the first line: the server never sees a request the plans in the store refuse.
  const policy = createPolicyRefresher({ store: metering.store, now: Date.now, supportedVersions: config.enforcement.supportedVersions, logger });
  await policy.start();
  // Started after the policy, whose version each flush's heartbeat reads.
  metering.flusher.start();
  const [program, ...args] = command;
  const wrapped = wrapStdio({
    command: program!,
    args,
    meter,
    caller: callerNamed(options.caller),
    maxLineBytes: config.maxBodyBytes,
    policy: policy.current,
    now: Date.now,
    ...(config.bridge.enabled
      ? {
          // One process holds the whole session: nothing is sealed, so stdio needs no bridge key.
          bridge: (ports) => createLegacyStdioBridge(ports, {
            inputTimeoutMs: config.bridge.inputTimeoutMs,
            onError: (error) => logger.error({ err: error }, 'bridge error; the request was answered with a JSON-RPC error'),
          }),
          // A server's answer (a resource, an image) can be far larger than any request: the bridge
          // holds one whole only while it translates it, within the budget of the answers awaited.
          maxServerLineBytes: Math.max(config.maxBodyBytes, config.caps.pendingAnswersBytes),
        }
      : {}),
    onInternalError: (error, where) => logger.error({ err: error, where }, 'metering error; the server keeps running unmetered'),
  });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => wrapped.kill(signal));
  const code = await wrapped.exited;
  policy.stop();
  const memory = meter.memory();
  // wrap has no /healthz: a squeezed table is worth one line at exit, a quiet run is worth none.
  if (memory.evictedForBytes > 0) {
    logger.warn({ bytesEvictions: memory.evictedForBytes, heldBytesBudget: memory.budgetBytes }, `${memory.evictedForBytes} entries pushed out of the meter by its byte budget; each client request among them was counted as no-response`);
  }
  const { lost } = await metering.finish();
  await metering.store?.close();
  // The server's own failure wins; a clean exit that lost counts must not look clean.
  process.exit(lost > 0 && code === 0 ? 1 : code);
}
