import { afterAll, beforeAll } from 'vitest';
import type { ConfigInput } from '../../server/config/config-schema.js';
import { startRawUpstream, type RawUpstream } from './raw-upstream.js';
import { startTestService, type TestService } from './start-test-service.js';

/**
 * A real service for a test file that reads its API, /healthz or /metrics and sends no MCP traffic:
 * its upstream answers 404 to anything. Started before the file's tests, stopped after them.
 */
export function useIdleService(overrides: Partial<ConfigInput> = {}): { readonly service: TestService } {
  let upstream: RawUpstream | undefined;
  let service: TestService | undefined;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin), { alerts: { scheduled: false }, ...overrides });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });
  return {
    get service() {
      if (service === undefined) throw new Error('the idle service is started in beforeAll');
      return service;
    },
  };
}
