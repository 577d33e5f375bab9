import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../server/config/load-config.js';
import { parseKeyValueList } from '../../server/config/otel-from-env.js';
import { metricsUrl, otelEnabled } from '../../server/otel/start-otel-export.js';

const load = (env: Record<string, string>, file: Record<string, unknown> = {}) => loadConfig({ file, env, defaults: { node: 'n' } });

describe('the otel settings from the standard variables', () => {
  test('off unless an endpoint is known; either endpoint variable alone turns it on', () => {
    expect(otelEnabled(load({}).otel)).toBe(false);
    const general = load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).otel;
    expect(otelEnabled(general)).toBe(true);
    expect(metricsUrl(general)).toBe('http://collector:4318/v1/metrics');
    const specific = load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://metrics:9000/ingest' }).otel;
    expect(metricsUrl(specific)).toBe('http://metrics:9000/ingest');
    expect(otelEnabled(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).otel)).toBe(false);
    expect(otelEnabled(load({}, { otel: { enabled: true, endpoint: 'http://c:4318' } }).otel)).toBe(true);
  });

  test('protocol, headers, interval, timeout and resource attributes, the metrics-specific variable winning', () => {
    const otel = load({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc%20def, x-tenant=blue',
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-tenant=green',
      OTEL_METRIC_EXPORT_INTERVAL: '15000',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
      OTEL_RESOURCE_ATTRIBUTES: 'service.namespace=payments,k8s.pod.name=api-0',
      OTEL_SERVICE_NAME: 'sunset-edge',
    }).otel;
    expect(otel).toMatchObject({
      protocol: 'http/json',
      headers: { 'api-key': 'abc def', 'x-tenant': 'green' },
      exportIntervalMs: 15_000,
      exportTimeoutMs: 2_000,
      resourceAttributes: { 'service.namespace': 'payments', 'k8s.pod.name': 'api-0', 'service.name': 'sunset-edge' },
    });
  });

  test('the environment overrides the file key by key, and keeps the file\'s other headers', () => {
    const otel = load({ OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=blue' }, { otel: { endpoint: 'http://c:4318', headers: { 'api-key': 'from-file', 'x-tenant': 'red' }, exportIntervalMs: 5000 } }).otel;
    expect(otel).toMatchObject({ endpoint: 'http://c:4318', headers: { 'api-key': 'from-file', 'x-tenant': 'blue' }, exportIntervalMs: 5000 });
  });

  test.each([
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /^otel\.protocol: expected http\/protobuf or http\/json \(gRPC is not offered\)$/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /^otel\.endpoint: expected an http:\/\/ or https:\/\/ URL$/],
    [{ OTEL_METRIC_EXPORT_INTERVAL: 'soon' }, /^otel\.exportIntervalMs: /],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'novalue' }, /^OTEL_EXPORTER_OTLP_HEADERS: expected key=value pairs separated by commas, got "novalue"$/],
    [{ OTEL_RESOURCE_ATTRIBUTES: 'a=%E0%A4%A' }, /^OTEL_RESOURCE_ATTRIBUTES: "%E0%A4%A" is not valid percent-encoding$/],
  ])('refuses %j with a message naming it', (env, message) => {
    expect(() => load(env)).toThrow(message);
  });

  test('a key-value list never reaches a prototype, whatever its keys', () => {
    const parsed = parseKeyValueList('__proto__=x,constructor=y', 'V');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
