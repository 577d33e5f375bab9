import { ValueType } from '@opentelemetry/api';
import { ExportResultCode, millisToHrTime, type ExportResult } from '@opentelemetry/core';
import { AggregationTemporalityPreference, OTLPMetricExporter as JsonExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, MeterProvider, PeriodicExportingMetricReader, type MetricProducer, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { OPERATION_DURATION_BOUNDS } from '../protocol/otel-attributes.js';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../lib/create-logger.js';
import type { DurationHistograms } from './duration-histograms.js';
import type { RequestCounts } from './request-counts.js';

/** What /healthz says of the export. */
export interface OtelHealth {
  endpoint: string;
  protocol: Config['otel']['protocol'];
  /** `starting` before the first export, `ok` after one that succeeded, `failing` after one that failed. */
  state: 'starting' | 'ok' | 'failing';
  exports: number;
  failedExports: number;
  consecutiveFailures: number;
  lastExportAt: string | null;
  lastError: string | null;
  /** Series the request counts hold, and requests counted into the overflow series past `otel.maxSeries`. */
  series: number;
  foldedRequests: number;
}

export interface OtelExport {
  health(): OtelHealth;
  /** A last export of what was counted, bounded in time: a collector that is down never holds the exit. */
  shutdown(): Promise<void>;
}

export interface OtelExportOptions {
  settings: Config['otel'];
  node: string;
  counts: RequestCounts;
  durations: DurationHistograms;
  /** The legacy share of today's served work across the store, read once per export; null when unknown. */
  legacyShare: () => Promise<number | null>;
  /** Distinct people served work today (UTC) on each era across the store, read once per export; null when unknown. */
  people: () => Promise<{ legacy: number; modern: number } | null>;
  logger: Logger;
  now: () => number;
}

/** Where metrics go: the metrics URL as given, else `<endpoint>/v1/metrics`; undefined when neither is set. */
export function metricsUrl(settings: Pick<Config['otel'], 'endpoint' | 'metricsEndpoint'>): string | undefined {
  if (settings.metricsEndpoint !== undefined) return settings.metricsEndpoint;
  if (settings.endpoint === undefined) return undefined;
  return `${settings.endpoint.replace(/\/+$/, '')}/v1/metrics`;
}

/** On when asked, or, unasked, when an endpoint is known: as every OpenTelemetry SDK does. */
export function otelEnabled(settings: Config['otel']): boolean {
  return settings.enabled ?? metricsUrl(settings) !== undefined;
}

/** A URL without its user and password, for /healthz and logs. */
function shown(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

const AT_EXIT_MS = 5_000;

/**
 * `mcp.server.operation.duration` from the histograms the tally's drains fill. The SDK's own
 * histogram takes one value per call; these come aggregated, so they are handed to the reader as
 * collected data, the way a bridge from another metrics library is.
 */
function durationProducer(durations: DurationHistograms, resource: ResourceMetrics['resource'], startedAt: number, now: () => number): MetricProducer {
  return {
    async collect() {
      const startTime = millisToHrTime(startedAt);
      const endTime = millisToHrTime(now());
      const dataPoints = durations.list().map((series) => ({
        startTime,
        endTime,
        attributes: series.attributes,
        value: { buckets: { boundaries: [...OPERATION_DURATION_BOUNDS], counts: [...series.counts] }, sum: series.sum, count: series.count },
      }));
      return {
        resourceMetrics: {
          resource,
          scopeMetrics: [
            {
              scope: { name: 'mcp-sunset' },
              metrics: [
                {
                  descriptor: { name: 'mcp.server.operation.duration', description: 'MCP request duration as the proxy saw it, from taking the request in to its outcome.', unit: 's', valueType: ValueType.DOUBLE },
                  aggregationTemporality: AggregationTemporality.CUMULATIVE,
                  dataPointType: DataPointType.HISTOGRAM,
                  dataPoints,
                },
              ],
            },
          ],
        },
        errors: [],
      };
    },
  };
}

/**
 * Exports the request counts (and the legacy share) over OTLP/HTTP on a period, off the request
 * path: the counts are the flusher's, and the SDK reads them only when it collects. Cumulative, so
 * a collector that was down gets every count at the next export that reaches it, and nothing piles
 * up in between but the series themselves (bounded by `otel.maxSeries`).
 */
export function startOtelExport(options: OtelExportOptions): OtelExport {
  const { settings, counts, logger } = options;
  const url = metricsUrl(settings);
  if (url === undefined) throw new Error('otel: no endpoint; set otel.endpoint, OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  const exporterOptions = {
    url,
    headers: { ...settings.headers },
    timeoutMillis: settings.exportTimeoutMs,
    temporalityPreference: AggregationTemporalityPreference.CUMULATIVE,
    // One export in flight and one waiting: a collector that hangs holds two payloads, never a queue.
    concurrencyLimit: 2,
  };
  const inner = settings.protocol === 'http/json' ? new JsonExporter(exporterOptions) : new ProtobufExporter(exporterOptions);
  const state = { exports: 0, failedExports: 0, consecutiveFailures: 0, lastExportAt: null as number | null, lastError: null as string | null };
  const record = (result: ExportResult) => {
    state.exports += 1;
    if (result.code === ExportResultCode.SUCCESS) {
      state.consecutiveFailures = 0;
      state.lastExportAt = options.now();
      return;
    }
    state.failedExports += 1;
    state.consecutiveFailures += 1;
    state.lastError = result.error?.message ?? 'export failed';
    if (state.consecutiveFailures === 1) logger.warn({ endpoint: shown(url), error: state.lastError }, 'OpenTelemetry export failed; counts are kept and sent with the next export that reaches the collector');
  };
  const exporter: PushMetricExporter = {
    export(metrics: ResourceMetrics, done: (result: ExportResult) => void) {
      inner.export(metrics, (result) => {
        record(result);
        done(result);
      });
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    selectAggregationTemporality: (kind) => inner.selectAggregationTemporality(kind),
    selectAggregation: (kind) => inner.selectAggregation(kind),
  };
  const resource = resourceFromAttributes({ 'service.name': 'mcp-sunset', 'service.instance.id': options.node, ...settings.resourceAttributes });
  const provider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter,
        metricProducers: [durationProducer(options.durations, resource, options.now(), options.now)],
        exportIntervalMillis: settings.exportIntervalMs,
        exportTimeoutMillis: Math.min(settings.exportTimeoutMs, settings.exportIntervalMs),
      }),
    ],
  });
  const meter = provider.getMeter('mcp-sunset');
  meter
    .createObservableCounter('mcp_sunset.requests', { description: 'MCP requests counted by mcp-sunset, by method, version, transport, era, lifecycle path, outcome and caller.', unit: '{request}' })
    .addCallback((result) => {
      for (const series of counts.byCaller()) result.observe(series.value, series.attributes);
    });
  meter
    .createObservableCounter('mcp_sunset.refusals', { description: 'MCP requests refused by a retirement plan, by plan, cause (brownout, block-new, cut), method, version, era and caller.', unit: '{request}' })
    .addCallback((result) => {
      for (const series of counts.refusalsByCaller()) result.observe(series.value, series.attributes);
    });
  meter.createObservableGauge('mcp_sunset.legacy.share', { description: 'Share of today\'s (UTC) served work requests the legacy era served, across every node on the store.', unit: '1' }).addCallback(async (result) => {
    try {
      const share = await options.legacyShare();
      if (share !== null) result.observe(share);
    } catch (error) {
      logger.debug({ err: error }, 'legacy share unavailable for the export');
    }
  });
  // By era only: a person or a caller never becomes an attribute of this gauge.
  meter
    .createObservableGauge('mcp_sunset.people', { description: 'Distinct people served work today (UTC) on each era across every caller and node on the store, as verified credentials named them.', unit: '{person}' })
    .addCallback(async (result) => {
      try {
        const people = await options.people();
        if (people === null) return;
        result.observe(people.legacy, { 'mcp_sunset.era': 'legacy' });
        result.observe(people.modern, { 'mcp_sunset.era': 'modern' });
      } catch (error) {
        logger.debug({ err: error }, 'people unavailable for the export');
      }
    });

  return {
    health: () => ({
      endpoint: shown(url),
      protocol: settings.protocol,
      state: state.exports === 0 ? 'starting' : state.consecutiveFailures > 0 ? 'failing' : 'ok',
      exports: state.exports,
      failedExports: state.failedExports,
      consecutiveFailures: state.consecutiveFailures,
      lastExportAt: state.lastExportAt === null ? null : new Date(state.lastExportAt).toISOString(),
      lastError: state.lastError,
      series: counts.byCaller().length,
      foldedRequests: counts.foldedRequests,
    }),
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, AT_EXIT_MS);
      });
      try {
        await Promise.race([provider.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'last OpenTelemetry export failed')), deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
