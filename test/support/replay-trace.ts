import type { ClassifiedMessage } from '../../server/protocol/classified-message.js';
import type { Outcome } from '../../server/protocol/vocabulary.js';
import type { HttpExchange } from '../../server/sidecar/http-exchange.js';
import { HttpMeter } from '../../server/sidecar/http-meter.js';
import type { Observation } from '../../server/sidecar/observation.js';
import { StdioMeter } from '../../server/sidecar/stdio-meter.js';
import type { HttpRecord, StdioRecord, WireTrace } from './wire-traces.js';

export interface Replayed {
  ref: number;
  message: ClassifiedMessage;
  outcome: Outcome;
}

type Step = { t: number; order: number; seq: number; run: () => void };

/**
 * Replays a captured HTTP trace through the meter in wall-clock order: requests, response heads,
 * body chunks and ends interleave as they did on the wire, so answers that arrive on another
 * exchange (HTTP+SSE) are correlated exactly as the proxy would.
 */
function replayHttp(records: HttpRecord[]): Replayed[] {
  const seen: Replayed[] = [];
  const meter = new HttpMeter<number>({ record: (o: Observation<number>) => seen.push({ ref: o.attrs, message: o.message, outcome: o.outcome }) });
  const steps: Step[] = [];
  const exchanges: HttpExchange<number>[] = [];
  for (const record of records) {
    let exchange: HttpExchange<number> | undefined;
    const begin = () => {
      exchange = meter.begin(
        { method: record.method, path: record.path, headers: record.req_headers, body: record.req_body ?? undefined, bodyTooLarge: false },
        record.seq,
      );
      exchanges.push(exchange);
    };
    steps.push({ t: record.t_req, order: 0, seq: record.seq, run: begin });
    if (record.status === null || record.t_res === null) continue;
    const status = record.status;
    steps.push({ t: record.t_res, order: 1, seq: record.seq, run: () => exchange?.responseHead(status, record.res_headers ?? {}) });
    const chunks = record.res_chunks ?? (record.res_body ? [[record.t_end ?? record.t_res, record.res_body] as [number, string]] : []);
    for (const [t, text] of chunks) steps.push({ t, order: 2, seq: record.seq, run: () => exchange?.responseBytes(Buffer.from(text, 'utf8')) });
    if (record.t_end === null) continue;
    if (record.end === 'complete') steps.push({ t: record.t_end, order: 3, seq: record.seq, run: () => exchange?.responseEnd() });
    if (record.end === 'client-closed') steps.push({ t: record.t_end, order: 3, seq: record.seq, run: () => exchange?.clientClosed() });
  }
  steps.sort((a, b) => a.t - b.t || a.order - b.order || a.seq - b.seq);
  for (const step of steps) step.run();
  // Still waiting when the capture stopped: classified, but no outcome was observed.
  for (const exchange of exchanges) {
    const ref = exchange.attrs;
    for (const message of exchange.classification.messages) {
      const counted = seen.some((r) => r.ref === ref && r.message.method === message.method && r.message.id === message.id);
      if (!counted) seen.push({ ref, message, outcome: 'no-response' });
    }
  }
  return seen;
}

/** Replays a stdio trace: one meter per server process (`conn`), closed when the process exits. */
function replayStdio(records: { ref: number; record: StdioRecord }[]): Replayed[] {
  const seen: Replayed[] = [];
  const meters = new Map<number, StdioMeter<number>>();
  const meterFor = (conn: number) => {
    let meter = meters.get(conn);
    if (meter === undefined) {
      meter = new StdioMeter<number>((o) => seen.push({ ref: o.attrs, message: o.message, outcome: o.outcome }));
      meters.set(conn, meter);
    }
    return meter;
  };
  for (const { ref, record } of records) {
    if (record.dir === 'c2s') meterFor(record.conn).clientLine(record.line, ref);
    if (record.dir === 's2c') meterFor(record.conn).serverLine(record.line);
    if (record.dir === 'event' && record.line.startsWith('server-exit')) meterFor(record.conn).close();
  }
  return seen;
}

export function replayTrace(trace: WireTrace): Replayed[] {
  const http = trace.records.filter((r) => r.record.type === 'http').map((r) => r.record as HttpRecord);
  const stdio = trace.records.filter((r): r is { ref: number; record: StdioRecord } => r.record.type === 'stdio');
  return [...replayHttp(http), ...replayStdio(stdio)];
}
