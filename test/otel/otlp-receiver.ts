import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/** One data point as the collector received it, whatever the encoding. */
export interface ReceivedPoint {
  attributes: Record<string, string>;
  value: number;
}

/** One histogram data point: explicit bounds and a count per bucket (one more than the bounds). */
export interface ReceivedHistogramPoint {
  attributes: Record<string, string>;
  count: number;
  sum: number;
  bounds: number[];
  counts: number[];
}

export interface ReceivedMetric {
  name: string;
  unit: string;
  kind: 'sum' | 'gauge' | 'histogram' | 'other';
  histogramPoints: ReceivedHistogramPoint[];
  /** For a sum: cumulative (2) or delta (1), as OTLP numbers them. */
  temporality: number | null;
  points: ReceivedPoint[];
}

export interface ReceivedExport {
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  resource: Record<string, string>;
  metrics: ReceivedMetric[];
}

/**
 * The OTLP/HTTP metrics messages a receiver needs, as the collector's protocol numbers their fields
 * (opentelemetry-proto: collector/metrics/v1, metrics/v1, common/v1, resource/v1). Only what the
 * tests read; protobuf skips the rest.
 */
const OTLP = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        ExportMetricsServiceRequest: { fields: { resourceMetrics: { rule: 'repeated', type: 'ResourceMetrics', id: 1 } } },
        ResourceMetrics: { fields: { resource: { type: 'Resource', id: 1 }, scopeMetrics: { rule: 'repeated', type: 'ScopeMetrics', id: 2 } } },
        Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        ScopeMetrics: { fields: { metrics: { rule: 'repeated', type: 'Metric', id: 2 } } },
        Metric: { fields: { name: { type: 'string', id: 1 }, unit: { type: 'string', id: 3 }, gauge: { type: 'Gauge', id: 5 }, sum: { type: 'Sum', id: 7 }, histogram: { type: 'Histogram', id: 9 } } },
        Histogram: { fields: { dataPoints: { rule: 'repeated', type: 'HistogramDataPoint', id: 1 }, aggregationTemporality: { type: 'int32', id: 2 } } },
        HistogramDataPoint: {
          fields: {
            attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
            count: { type: 'fixed64', id: 4 },
            sum: { type: 'double', id: 5 },
            bucketCounts: { rule: 'repeated', type: 'fixed64', id: 6 },
            explicitBounds: { rule: 'repeated', type: 'double', id: 7 },
          },
        },
        Gauge: { fields: { dataPoints: { rule: 'repeated', type: 'NumberDataPoint', id: 1 } } },
        Sum: { fields: { dataPoints: { rule: 'repeated', type: 'NumberDataPoint', id: 1 }, aggregationTemporality: { type: 'int32', id: 2 }, isMonotonic: { type: 'bool', id: 3 } } },
        NumberDataPoint: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 7 }, asDouble: { type: 'double', id: 4 }, asInt: { type: 'sfixed64', id: 6 } } },
        KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
        AnyValue: { fields: { stringValue: { type: 'string', id: 1 }, boolValue: { type: 'bool', id: 2 }, intValue: { type: 'int64', id: 3 }, doubleValue: { type: 'double', id: 4 } } },
      },
    },
  },
});
const REQUEST = OTLP.lookupType('otlp.ExportMetricsServiceRequest');

/** The plain shape both encodings decode to (protobuf via toObject, JSON as OTLP/JSON spells it). */
interface PlainKeyValue {
  key: string;
  value?: { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
}
interface PlainPoint {
  attributes?: PlainKeyValue[];
  asDouble?: number;
  asInt?: string | number;
}
interface PlainHistogramPoint {
  attributes?: PlainKeyValue[];
  count?: string | number;
  sum?: number;
  bucketCounts?: (string | number)[];
  explicitBounds?: number[];
}
interface PlainRequest {
  resourceMetrics?: {
    resource?: { attributes?: PlainKeyValue[] };
    scopeMetrics?: {
      metrics?: { name: string; unit?: string; gauge?: { dataPoints?: PlainPoint[] }; sum?: { dataPoints?: PlainPoint[]; aggregationTemporality?: number }; histogram?: { dataPoints?: PlainHistogramPoint[]; aggregationTemporality?: number } }[];
    }[];
  }[];
}

function attributesOf(list: PlainKeyValue[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of list ?? []) out[key] = String(value?.stringValue ?? value?.intValue ?? value?.doubleValue ?? value?.boolValue ?? '');
  return out;
}

function pointOf(point: PlainPoint): ReceivedPoint {
  return { attributes: attributesOf(point.attributes), value: point.asDouble ?? Number(point.asInt ?? 0) };
}

function exportOf(request: PlainRequest, contentType: string, headers: ReceivedExport['headers']): ReceivedExport {
  const resource: Record<string, string> = {};
  const metrics: ReceivedMetric[] = [];
  for (const rm of request.resourceMetrics ?? []) {
    Object.assign(resource, attributesOf(rm.resource?.attributes));
    for (const sm of rm.scopeMetrics ?? []) {
      for (const m of sm.metrics ?? []) {
        const kind = m.sum !== undefined ? 'sum' : m.gauge !== undefined ? 'gauge' : m.histogram !== undefined ? 'histogram' : 'other';
        const points = (m.sum?.dataPoints ?? m.gauge?.dataPoints ?? []).map(pointOf);
        const histogramPoints = (m.histogram?.dataPoints ?? []).map((p) => ({
          attributes: attributesOf(p.attributes),
          count: Number(p.count ?? 0),
          sum: p.sum ?? 0,
          bounds: p.explicitBounds ?? [],
          counts: (p.bucketCounts ?? []).map(Number),
        }));
        metrics.push({ name: m.name, unit: m.unit ?? '', kind, temporality: m.sum?.aggregationTemporality ?? m.histogram?.aggregationTemporality ?? null, points, histogramPoints });
      }
    }
  }
  return { contentType, headers, resource, metrics };
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  origin: string;
  received: ReceivedExport[];
  /** Stops answering: the port is closed, so exports are refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A real OTLP/HTTP metrics receiver on loopback that decodes protobuf and JSON exports. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  let port = 0;
  let server: Server;
  const listen = async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const contentType = req.headers['content-type'] ?? '';
        if (req.method !== 'POST' || req.url !== '/v1/metrics') {
          res.writeHead(404).end();
          return;
        }
        if (contentType.startsWith('application/x-protobuf')) {
          const plain = REQUEST.toObject(REQUEST.decode(body), { longs: String, defaults: false }) as PlainRequest;
          received.push(exportOf(plain, contentType, req.headers));
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } else {
          received.push(exportOf(JSON.parse(body.toString('utf8')) as PlainRequest, contentType, req.headers));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen();
  return { origin: `http://127.0.0.1:${port}`, received, stop, restart: listen, close: stop };
}

/** The latest export's points of one metric. */
export function latestPoints(receiver: OtlpReceiver, name: string): ReceivedPoint[] {
  for (let i = receiver.received.length - 1; i >= 0; i -= 1) {
    const metric = receiver.received[i]!.metrics.find((m) => m.name === name);
    if (metric !== undefined) return metric.points;
  }
  return [];
}
