/**
 * What one counted request is called in the OpenTelemetry MCP semantic conventions, and under
 * mcp-sunset's own prefix for what the conventions have no name for. Pure, closed: every name below
 * is either the conventions' own or starts with `mcp_sunset.`, and every value comes from the closed
 * vocabulary or from a label the tally has already capped.
 */
import { isServed } from './served.js';
import type { Era, Outcome, Reason, Transport } from './vocabulary.js';

export const OTEL_ATTRIBUTES = {
  /** The conventions': the JSON-RPC method (capped by the tally; past the cap, `other`). */
  method: 'mcp.method.name',
  /** The conventions': the protocol version the mechanism carried; absent when none did. */
  version: 'mcp.protocol.version',
  /** The conventions': `tcp` for both HTTP transports, `pipe` for stdio. */
  networkTransport: 'network.transport',
  /** The conventions': `http` for the HTTP transports; absent for stdio. */
  networkProtocol: 'network.protocol.name',
  /** The conventions': set only when the request was not answered with a result, to the outcome's name. */
  errorType: 'error.type',
  /** mcp-sunset's: the era of the mechanism that served it, the measure the conventions lack. */
  era: 'mcp_sunset.era',
  /** mcp-sunset's: the MCP transport by name (streamable-http, http+sse, stdio). */
  transport: 'mcp_sunset.transport',
  /** mcp-sunset's: the lifecycle path (why the request was filed under its era). */
  lifecyclePath: 'mcp_sunset.lifecycle_path',
  /** mcp-sunset's: the outcome, `blocked` being a refusal by a retirement plan. */
  outcome: 'mcp_sunset.outcome',
  /** mcp-sunset's: the id of the plan that refused a request (on refusals only). */
  plan: 'mcp_sunset.plan',
  /** mcp-sunset's: why the plan refused it: `brownout`, `block-new` or `cut` (on refusals only). */
  refusal: 'mcp_sunset.refusal',
  /** mcp-sunset's: the identifiable caller, capped; `anonymous` and `other` otherwise. Never in Prometheus labels. */
  caller: 'mcp_sunset.caller',
} as const;

/**
 * The bucket bounds of `mcp.server.operation.duration`, in seconds: the conventions' advice for MCP
 * operations, from 10 ms to 5 minutes (a tool call may run long).
 */
export const OPERATION_DURATION_BOUNDS: readonly number[] = Object.freeze([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);

/** Index of the bucket a duration falls in: the first bound at or above it, past the last the overflow bucket. */
export function durationBucket(seconds: number): number {
  const bounds = OPERATION_DURATION_BOUNDS;
  let i = 0;
  while (i < bounds.length && seconds > bounds[i]!) i += 1;
  return i;
}

/** The version label the tally files a request without one under. */
const NO_VERSION = '(none)';

export interface RequestLabels {
  era: Era;
  transport: Transport;
  reason: Reason;
  version: string;
  method: string;
  outcome: Outcome;
}

/** The attributes of a request's count, caller aside. A served or accepted request carries no error.type. */
export function requestAttributes(labels: RequestLabels): Record<string, string> {
  const a = OTEL_ATTRIBUTES;
  const attributes: Record<string, string> = {
    [a.method]: labels.method,
    [a.networkTransport]: labels.transport === 'stdio' ? 'pipe' : 'tcp',
    [a.era]: labels.era,
    [a.transport]: labels.transport,
    [a.lifecyclePath]: labels.reason,
    [a.outcome]: labels.outcome,
  };
  if (labels.version !== NO_VERSION && labels.version !== '') attributes[a.version] = labels.version;
  if (labels.transport !== 'stdio') attributes[a.networkProtocol] = 'http';
  if (!isServed(labels.outcome) && labels.outcome !== 'accepted') attributes[a.errorType] = labels.outcome;
  return attributes;
}
