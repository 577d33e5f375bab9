import { Registry, collectDefaultMetrics } from 'prom-client';

/** A Prometheus registry with the process defaults only, for a process that counts no traffic. */
export function createProcessRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mcp_sunset_' });
  return registry;
}
