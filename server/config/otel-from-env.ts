/**
 * The standard OpenTelemetry environment variables, read as every OpenTelemetry SDK reads them, into
 * the `otel` settings they stand for. Pure: it answers what the variables say, for the schema to
 * validate; a list it cannot read is an error naming the variable.
 */

export type OtelEnvSettings = Partial<{
  enabled: boolean;
  endpoint: string;
  metricsEndpoint: string;
  protocol: string;
  headers: Record<string, string>;
  exportIntervalMs: string;
  exportTimeoutMs: string;
  resourceAttributes: Record<string, string>;
}>;

export class OtelEnvError extends Error {}

/** `key1=value1,key2=value2`, each part percent-decoded (the W3C baggage form the specification uses). */
export function parseKeyValueList(text: string, variable: string): Record<string, string> {
  const entries: [string, string][] = [];
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    const key = at < 0 ? '' : decode(part.slice(0, at).trim(), variable);
    if (key === '') throw new OtelEnvError(`${variable}: expected key=value pairs separated by commas, got "${part.trim()}"`);
    entries.push([key, decode(part.slice(at + 1).trim(), variable)]);
  }
  // A map built from the entries: no key, however named, can reach an object's prototype.
  return Object.fromEntries(new Map(entries));
}

function decode(text: string, variable: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new OtelEnvError(`${variable}: "${text}" is not valid percent-encoding`);
  }
}

function present(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The metrics-specific variable wins over the general one, as the specification says. */
export function otelFromEnv(env: Readonly<Record<string, string | undefined>>): OtelEnvSettings {
  const out: OtelEnvSettings = {};
  const disabled = present(env, 'OTEL_SDK_DISABLED');
  if (disabled !== undefined && disabled.toLowerCase() === 'true') out.enabled = false;
  const endpoint = present(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (endpoint !== undefined) out.endpoint = endpoint;
  const metricsEndpoint = present(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  if (metricsEndpoint !== undefined) out.metricsEndpoint = metricsEndpoint;
  const protocol = present(env, 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL') ?? present(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined) out.protocol = protocol;
  const headers = {
    ...parseKeyValueList(present(env, 'OTEL_EXPORTER_OTLP_HEADERS') ?? '', 'OTEL_EXPORTER_OTLP_HEADERS'),
    ...parseKeyValueList(present(env, 'OTEL_EXPORTER_OTLP_METRICS_HEADERS') ?? '', 'OTEL_EXPORTER_OTLP_METRICS_HEADERS'),
  };
  if (Object.keys(headers).length > 0) out.headers = headers;
  const interval = present(env, 'OTEL_METRIC_EXPORT_INTERVAL');
  if (interval !== undefined) out.exportIntervalMs = interval;
  const timeout = present(env, 'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT') ?? present(env, 'OTEL_EXPORTER_OTLP_TIMEOUT') ?? present(env, 'OTEL_METRIC_EXPORT_TIMEOUT');
  if (timeout !== undefined) out.exportTimeoutMs = timeout;
  const resource = parseKeyValueList(present(env, 'OTEL_RESOURCE_ATTRIBUTES') ?? '', 'OTEL_RESOURCE_ATTRIBUTES');
  const serviceName = present(env, 'OTEL_SERVICE_NAME');
  if (serviceName !== undefined) resource['service.name'] = serviceName;
  if (Object.keys(resource).length > 0) out.resourceAttributes = resource;
  return out;
}
