import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeCertificates } from '../support/make-certificates.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });

async function post(service: TestService, headers: Record<string, string>): Promise<void> {
  const response = await fetch(new URL('/mcp', service.sidecarUrl), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: BODY });
  await response.text();
}

describe('who is calling: trusted mechanisms only', () => {
  let upstream: RawUpstream;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{"tools":[],"resultType":"complete"}}'));
  });
  afterAll(async () => upstream?.close());

  test('a gateway header names the caller only when the request comes from a trusted proxy', async () => {
    const trusting = await startTestService(new URL(upstream.origin), { identity: { trustedProxies: ['127.0.0.1'] } });
    const distrusting = await startTestService(new URL(upstream.origin), { identity: { trustedProxies: ['10.0.0.0/8'] } });
    try {
      await post(trusting, { 'x-mcp-integration': 'billing-gateway' });
      await post(distrusting, { 'x-mcp-integration': 'billing-gateway' });
      expect(await trafficTotals(trusting, 'integration')).toEqual({ 'billing-gateway': 1 });
      expect(await trafficTotals(distrusting, 'integration')).toEqual({ anonymous: 1 });
    } finally {
      await trusting.dispose();
      await distrusting.dispose();
    }
  });

  test('an API key in the operator\'s static map names the caller', async () => {
    const service = await startTestService(new URL(upstream.origin), { identity: { staticMap: { 'key-7f3a9c': 'nightly-report' } } });
    try {
      await post(service, { 'x-api-key': 'key-7f3a9c' });
      await post(service, { 'x-api-key': 'unknown-key' });
      expect(await trafficTotals(service, 'integration')).toEqual({ 'nightly-report': 1, anonymous: 1 });
    } finally {
      await service.dispose();
    }
  });

  test('with TLS terminated at the sidecar, a verified client certificate names the caller', async () => {
    const service0 = await startTestService(new URL(upstream.origin));
    const certs = makeCertificates(service0.dir, 'ops-robot');
    const service = await startTestService(new URL(upstream.origin), {
      tls: { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile, caFile: certs.caFile, requestClientCert: true },
    });
    try {
      expect(service.sidecarUrl.protocol).toBe('https:');
      const send = (withClientCert: boolean) =>
        new Promise<number>((resolve, reject) => {
          const req = httpsRequest(new URL('/mcp', service.sidecarUrl), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            ca: readFileSync(certs.caFile),
            ...(withClientCert ? { cert: readFileSync(certs.clientCertFile), key: readFileSync(certs.clientKeyFile) } : {}),
          });
          req.on('response', (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end(BODY);
        });
      expect(await send(true)).toBe(200);
      // No certificate is not refused: the sidecar never turns traffic away, it just cannot name the caller.
      expect(await send(false)).toBe(200);
      expect(await trafficTotals(service, 'integration')).toEqual({ 'mtls:ops-robot': 1, anonymous: 1 });
    } finally {
      await service.dispose();
      await service0.dispose();
    }
  });
});
