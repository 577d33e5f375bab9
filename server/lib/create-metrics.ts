import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

export interface MeteringGauges {
  droppedEvents(): number;
  retainedEvents(): number;
  spooledEvents(): number;
  pendingEvents(): number;
  overflowedEvents(): number;
  pendingAnswers(): number;
  sessions(): number;
  heldBytes(): number;
  bytesEvictions(): number;
  lastFlushAt(): number | undefined;
  failedFlushes(): number;
  pausedPlans(): number;
  /** Cumulative request counts by their OpenTelemetry attributes, caller left out (server/otel/request-counts.ts). */
  requestSeries?(): readonly { attributes: Readonly<Record<string, string>>; value: number }[];
  /** Cumulative refusals by plan and cause beside the request attributes, caller left out. */
  refusalSeries?(): readonly { attributes: Readonly<Record<string, string>>; value: number }[];
  /** mcp.server.operation.duration since start: the bucket bounds (seconds) and each series' counts, sum and count. */
  durationSeries?(): { bounds: readonly number[]; series: readonly { attributes: Readonly<Record<string, string>>; counts: readonly number[]; sum: number; count: number }[] };
  /** The OpenTelemetry export's state, when it runs. */
  otelExport?(): { up: boolean; failedExports: number; lastExportAt: number | null } | undefined;
  /** Distinct people served work today (UTC) on each era across every caller, read from the store; null when there is none. */
  people?(): Promise<{ legacy: number; modern: number } | null>;
}

/** An OpenTelemetry name as Prometheus spells it: every character outside [a-zA-Z0-9_] becomes `_`. */
export function prometheusName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_]/g, '_');
}

/** The attributes a request's count can carry, without the caller (never a Prometheus label). */
export const REQUEST_LABELS = [
  'mcp.method.name',
  'mcp.protocol.version',
  'network.transport',
  'network.protocol.name',
  'error.type',
  'mcp_sunset.era',
  'mcp_sunset.transport',
  'mcp_sunset.lifecycle_path',
  'mcp_sunset.outcome',
  'mcp_sunset.overflow',
] as const;

/** A refusal's count carries the request's attributes, the plan and the cause. */
export const REFUSAL_LABELS = [...REQUEST_LABELS, 'mcp_sunset.plan', 'mcp_sunset.refusal'] as const;

/**
 * The Prometheus registry. Labels are the closed vocabulary only, but for the method and version of
 * the OpenTelemetry twins, which the tally has capped and the export bounds in series; no caller
 * identity ever becomes a label, so cardinality stays bounded.
 */
export function createMetrics(gauges: MeteringGauges) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mcp_sunset_' });
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read() ?? 0);
      },
    });
  gauge('mcp_sunset_dropped_events', 'Counted events lost because the store kept failing.', gauges.droppedEvents);
  gauge('mcp_sunset_retained_events', 'Events from failed flushes waiting for a retry.', gauges.retainedEvents);
  gauge('mcp_sunset_spooled_events', 'Events the store could not take in time, kept in the spool until it can.', gauges.spooledEvents);
  gauge('mcp_sunset_pending_events', 'Events counted in memory, not yet flushed.', gauges.pendingEvents);
  gauge('mcp_sunset_overflowed_events', 'Events whose method, version or integration was folded into "other" by a cap.', gauges.overflowedEvents);
  gauge('mcp_sunset_pending_answers', 'Requests waiting for an answer on another exchange.', gauges.pendingAnswers);
  gauge('mcp_sunset_sessions', 'Legacy sessions remembered.', gauges.sessions);
  gauge('mcp_sunset_held_bytes', 'Bytes the sidecar\'s tables (sessions, channels, answers awaited) hold, as estimated.', gauges.heldBytes);
  gauge('mcp_sunset_byte_evictions', 'Entries pushed out of the sidecar\'s tables because their byte budget was full.', gauges.bytesEvictions);
  gauge('mcp_sunset_paused_plans', 'Plans whose refusals are paused now, in the policy this node enforces.', gauges.pausedPlans);
  gauge('mcp_sunset_failed_flushes', 'Flush attempts that failed.', gauges.failedFlushes);
  gauge('mcp_sunset_last_flush_timestamp_seconds', 'When the last flush succeeded.', () => {
    const at = gauges.lastFlushAt();
    return at === undefined ? 0 : at / 1000;
  });
  // Counting a message is a plain increment on the hot path. prom-client's labelled child hashes
  // its labels on every inc(); the combinations are few, so each keeps its own integer, and a scrape
  // hands the counter what was added since the last one.
  const counted = new Map<string, { labels: [string, string, string, string]; count: number; published: number }>();
  const messages = new Counter({
    name: 'mcp_sunset_messages_total',
    help: 'MCP messages counted, by lifecycle path and outcome.',
    labelNames: ['era', 'transport', 'reason', 'outcome'] as const,
    registers: [registry],
    collect() {
      for (const entry of counted.values()) {
        if (entry.count === entry.published) continue;
        const [era, transport, reason, outcome] = entry.labels;
        this.inc({ era, transport, reason, outcome }, entry.count - entry.published);
        entry.published = entry.count;
      }
    },
  });
  // The OpenTelemetry export's counters, by the standard mapping: counted at each flush, read at each scrape.
  const twin = (name: string, help: string, labelNames: readonly string[], read: () => readonly { attributes: Readonly<Record<string, string>>; value: number }[]) => {
    const published = new Map<string, number>();
    new Counter({
      name,
      help,
      labelNames: labelNames.map(prometheusName),
      registers: [registry],
      collect() {
        for (const series of read()) {
          const labels = Object.fromEntries(Object.entries(series.attributes).map(([attribute, value]) => [prometheusName(attribute), value]));
          const key = JSON.stringify(labels);
          const before = published.get(key) ?? 0;
          if (series.value > before) this.inc(labels, series.value - before);
          published.set(key, series.value);
        }
      },
    });
  };
  twin('mcp_sunset_requests_total', 'MCP requests counted, by method, version, transport, era, lifecycle path and outcome (the OpenTelemetry export\'s mcp_sunset.requests, without the caller).', REQUEST_LABELS, () => gauges.requestSeries?.() ?? []);
  twin('mcp_sunset_refusals_total', 'MCP requests refused by a retirement plan, by plan and cause beside the request\'s labels (the OpenTelemetry export\'s mcp_sunset.refusals, without the caller).', REFUSAL_LABELS, () => gauges.refusalSeries?.() ?? []);
  // A histogram whose buckets arrive aggregated: prom-client's own takes one value per call, so it
  // is written out as the text format spells a histogram (cumulative `le` buckets, _sum, _count).
  const durationName = 'mcp_server_operation_duration_seconds';
  const durationHelp = 'MCP request duration as the proxy saw it, from taking the request in to its outcome (the OpenTelemetry export\'s mcp.server.operation.duration).';
  registry.registerMetric({
    name: durationName,
    help: durationHelp,
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const { bounds, series } = gauges.durationSeries?.() ?? { bounds: [], series: [] };
      const values = series.flatMap((s) => {
        const labels = Object.fromEntries(Object.entries(s.attributes).map(([name, value]) => [prometheusName(name), value]));
        let running = 0;
        const buckets = s.counts.map((n, i) => {
          running += n;
          return { metricName: `${durationName}_bucket`, labels: { ...labels, le: i < bounds.length ? String(bounds[i]) : '+Inf' }, value: running };
        });
        return [...buckets, { metricName: `${durationName}_sum`, labels, value: s.sum }, { metricName: `${durationName}_count`, labels, value: s.count }];
      });
      return { name: durationName, help: durationHelp, type: 'histogram', aggregator: 'sum', values };
    },
  } as unknown as Parameters<Registry['registerMetric']>[0]);
  // Read from the store at each scrape: a count of distinct people cannot be summed from deltas. By
  // era only, never by caller or person, so the series stay two. A store that fails reports nothing
  // for that scrape instead of failing it (or repeating the last values as if they were current).
  new Gauge({
    name: 'mcp_sunset_people',
    help: 'Distinct people served work today (UTC) on each era across every caller and node on the store, as verified credentials named them; one who used both eras counts in each.',
    labelNames: ['era'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      let people: { legacy: number; modern: number } | null | undefined;
      try {
        people = await gauges.people?.();
      } catch {
        return;
      }
      if (people === null || people === undefined) return;
      this.set({ era: 'legacy' }, people.legacy);
      this.set({ era: 'modern' }, people.modern);
    },
  });
  gauge('mcp_sunset_otel_up', '1 when the last OpenTelemetry export reached the collector; 0 when it failed, before the first, or with the export off.', () => {
    const otel = gauges.otelExport?.();
    return otel === undefined ? undefined : otel.up ? 1 : 0;
  });
  gauge('mcp_sunset_otel_failed_exports', 'OpenTelemetry exports that failed since start.', () => gauges.otelExport?.()?.failedExports ?? 0);
  gauge('mcp_sunset_otel_last_export_timestamp_seconds', 'When an OpenTelemetry export last reached the collector.', () => {
    const at = gauges.otelExport?.()?.lastExportAt;
    return at === null || at === undefined ? 0 : at / 1000;
  });
  return {
    registry,
    messages,
    /** Counts one settled message under its lifecycle path, its claim mismatch and its dry-run mark, if any. */
    countObservation(settled: { message: { era: string; transport: string; reason: string }; outcome: string; claimMismatch: boolean; attrs?: { wouldBlock?: boolean } }): void {
      const { message, outcome } = settled;
      this.countMessage(message.era, message.transport, message.reason, outcome);
      if (settled.claimMismatch) this.claimMismatches.inc();
      if (settled.attrs?.wouldBlock === true) this.wouldBlock.inc();
    },
    countMessage(era: string, transport: string, reason: string, outcome: string): void {
      const key = `${era}|${transport}|${reason}|${outcome}`;
      const entry = counted.get(key);
      if (entry !== undefined) entry.count += 1;
      else counted.set(key, { labels: [era, transport, reason, outcome], count: 1, published: 0 });
    },
    claimMismatches: new Counter({
      name: 'mcp_sunset_claim_mismatches_total',
      help: 'Modern requests whose mirrored headers disagreed with the body.',
      registers: [registry],
    }),
    wouldBlock: new Counter({
      name: 'mcp_sunset_would_block_total',
      help: 'Messages a plan in dry run, or a paused plan, would have refused; they were passed on (refusals themselves are outcome="blocked").',
      registers: [registry],
    }),
    // Kept apart from the MCP counts: no era, transport or reason describes these requests.
    nonMcpRequests: new Counter({
      name: 'mcp_sunset_non_mcp_requests_total',
      help: 'Requests passed on to the upstream that cannot carry MCP (outside the public prefix, /.well-known/, other methods).',
      registers: [registry],
    }),
    meteringErrors: new Counter({
      name: 'mcp_sunset_metering_errors_total',
      help: 'Failures inside the sidecar\'s own metering; traffic was passed on regardless.',
      labelNames: ['where'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
