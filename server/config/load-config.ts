import { z } from 'zod';
import { configSchema, type Config, type ConfigInput } from './config-schema.js';
import { OtelEnvError, otelFromEnv } from './otel-from-env.js';

/** Environment variables read, and the setting each one fills. */
export const ENV_SETTINGS: Readonly<Record<string, keyof ConfigInput>> = {
  MCP_SUNSET_UPSTREAM: 'upstream',
  MCP_SUNSET_LISTEN: 'listen',
  MCP_SUNSET_DASHBOARD: 'dashboard',
  MCP_SUNSET_DB: 'db',
  MCP_SUNSET_NODE: 'node',
  MCP_SUNSET_PUBLIC_PREFIX: 'publicPrefix',
  MCP_SUNSET_FLUSH_INTERVAL_MS: 'flushIntervalMs',
  MCP_SUNSET_LOG_LEVEL: 'logLevel',
  MCP_SUNSET_ADMIN_TOKEN: 'adminToken',
};

export class ConfigError extends Error {}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.join('.') : 'config';
  return `${field}: ${issue.message}`;
}

export interface ConfigSources {
  file?: Record<string, unknown>;
  env?: Readonly<Record<string, string | undefined>>;
  flags?: Record<string, unknown>;
  defaults?: Partial<ConfigInput>;
}

/**
 * Merges defaults < file < environment < flags and validates once. Throws a ConfigError whose
 * message names the offending setting.
 */
export function loadConfig(sources: ConfigSources): Readonly<Config> {
  const fromEnv: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_SETTINGS)) {
    const value = sources.env?.[name];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  // Set by environment inside an object: the key, kept out of files and command lines, and the node's
  // own URL, which a container knows only at run time (its pod address, say).
  const bridgeKey = sources.env?.MCP_SUNSET_BRIDGE_KEY;
  const bridgeNodeUrl = sources.env?.MCP_SUNSET_BRIDGE_NODE_URL;
  const bridgeFromEnv = {
    ...(bridgeKey !== undefined && bridgeKey !== '' ? { key: bridgeKey } : {}),
    ...(bridgeNodeUrl !== undefined && bridgeNodeUrl !== '' ? { nodeUrl: bridgeNodeUrl } : {}),
  };
  if (Object.keys(bridgeFromEnv).length > 0) {
    const file = sources.file?.bridge;
    fromEnv.bridge = { ...(typeof file === 'object' && file !== null ? file : {}), ...bridgeFromEnv };
  }
  let otelEnv;
  try {
    otelEnv = otelFromEnv(sources.env ?? {});
  } catch (error) {
    if (error instanceof OtelEnvError) throw new ConfigError(error.message);
    throw error;
  }
  if (Object.keys(otelEnv).length > 0) {
    const file = sources.file?.otel;
    const fromFile: Record<string, unknown> = typeof file === 'object' && file !== null ? (file as Record<string, unknown>) : {};
    // Lists merge key by key: a header set in the environment does not drop the file's others.
    const merge = (key: 'headers' | 'resourceAttributes') => {
      const own = fromFile[key];
      const extra = otelEnv[key];
      return extra === undefined ? {} : { [key]: { ...(typeof own === 'object' && own !== null ? own : {}), ...extra } };
    };
    fromEnv.otel = { ...fromFile, ...otelEnv, ...merge('headers'), ...merge('resourceAttributes') };
  }
  const flags = Object.fromEntries(Object.entries(sources.flags ?? {}).filter(([, value]) => value !== undefined));
  const merged = { ...sources.defaults, ...sources.file, ...fromEnv, ...flags };
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    // One complaint per setting: the first is the one to fix.
    const firstPerField = new Map(parsed.error.issues.reverse().map((issue) => [issue.path.join('.'), issue]));
    throw new ConfigError([...firstPerField.values()].reverse().map(describeIssue).join('; '));
  }
  return Object.freeze(parsed.data);
}
