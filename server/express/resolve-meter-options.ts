import { hostname } from 'node:os';
import type { Config, ConfigInput } from '../config/config-schema.js';
import { ConfigError, loadConfig } from '../config/load-config.js';
import type { Logger } from '../lib/create-logger.js';

/** The settings of `serve` that mean something inside a host's own app: no listener, upstream, dashboard, TLS or declared plans. */
export const MIDDLEWARE_SETTINGS = [
  'db',
  'node',
  'identity',
  'caps',
  'flushIntervalMs',
  'flushMaxAttempts',
  'maxBodyBytes',
  'maxAnswerBytes',
  'httpSseMessagePaths',
  'httpSseStreamPaths',
  'enforcement',
  'spoolPath',
  'logLevel',
  'otel',
] as const satisfies readonly (keyof ConfigInput)[];

export type MeterSettings = Partial<Pick<ConfigInput, (typeof MIDDLEWARE_SETTINGS)[number]>>;

export interface MeterOptions extends MeterSettings {
  /** Where the middleware logs; a pino logger on stderr at `logLevel` when absent. */
  logger?: Logger;
  now?: () => number;
}

export interface ResolvedMeterOptions {
  config: Readonly<Config>;
  logger: Logger | undefined;
  now: () => number;
}

const ACCEPTED: ReadonlySet<string> = new Set([...MIDDLEWARE_SETTINGS, 'logger', 'now']);

/**
 * Validates the middleware's options with the service's own schema, so a setting means the same in
 * both places. Throws a ConfigError naming the first bad field, or a setting the middleware has no use for.
 */
export function resolveMeterOptions(options: MeterOptions = {}): ResolvedMeterOptions {
  const { logger, now, ...settings } = options;
  const unknown = Object.keys(settings).find((key) => !ACCEPTED.has(key));
  if (unknown !== undefined) throw new ConfigError(`${unknown}: not a setting of the middleware (it takes ${MIDDLEWARE_SETTINGS.join(', ')})`);
  if (now !== undefined && typeof now !== 'function') throw new ConfigError('now: expected a function answering epoch milliseconds');
  // The standard OTEL_* variables work here as in every OpenTelemetry SDK; the service's own MCP_SUNSET_* ones are the service's.
  const otelEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('OTEL_')));
  const config = loadConfig({ defaults: { node: hostname() }, env: otelEnv, flags: settings });
  return { config, logger, now: now ?? Date.now };
}
