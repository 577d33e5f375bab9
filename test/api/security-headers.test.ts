import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveDashboard } from '../../server/api/serve-dashboard.js';
import { buildDashboard } from '../../web/build.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const EXPECTED = {
  'content-security-policy': expect.stringMatching(/^default-src 'self';.*frame-ancestors 'none'$/),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

describe('the page and the API carry security headers', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    await buildDashboard();
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin));
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test.each(['/', '/main.js', '/api/v1/plans', '/api/v1/nothing-here'])('%s', async (path) => {
    const response = await fetch(new URL(path, service.apiUrl));
    await response.arrayBuffer();
    expect(Object.fromEntries(response.headers)).toMatchObject(EXPECTED);
  });
});

describe('source maps', () => {
  const dirs: string[] = [];
  let server: Server | undefined;
  afterAll(async () => {
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('are not built by default, and never served even when built', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'mcp-sunset-web-'));
    const mapped = mkdtempSync(join(tmpdir(), 'mcp-sunset-web-'));
    dirs.push(plain, mapped);
    await buildDashboard(plain);
    await buildDashboard(mapped, { sourcemap: true });
    expect(readdirSync(plain).filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(readdirSync(mapped)).toContain('main.js.map');

    const app = express();
    app.use(serveDashboard(mapped));
    server = createServer(app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/main.js`)).status).toBe(200);
    expect((await fetch(`${base}/main.js.map`)).status).toBe(404);
  });
});
