import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * In front of a real SDK server, puts a UTF-8 byte-order mark before every answer body, JSON or
 * event stream: no SDK server writes one, and a server behind some frameworks or proxies may. The
 * SDK clients read answers with `response.json()` and `TextDecoderStream`, which drop it.
 */
async function startBomUpstream(server: URL): Promise<{ origin: string; marked: () => number; close: () => Promise<void> }> {
  let marked = 0;
  const relay: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) if (!/^(host|connection|content-length)$/i.test(req.rawHeaders[i]!)) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const answer = await fetch(new URL(req.url ?? '/', server), { method: req.method, headers, body });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') out[name] = value;
      });
      res.writeHead(answer.status, out);
      if (answer.body === null) return void res.end();
      let first = true;
      for await (const chunk of answer.body) {
        if (first) {
          first = false;
          marked += 1;
          res.write(BOM);
        }
        res.write(chunk);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    marked: () => marked,
    close: () => new Promise((resolve) => relay.close(() => resolve())),
  };
}

describe('an answer that starts with a byte-order mark is read as its client reads it', () => {
  let peer: Peer | undefined;
  let relay: Awaited<ReturnType<typeof startBomUpstream>> | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await relay?.close();
    await peer?.close();
    service = relay = peer = undefined;
  });

  test.each([
    { name: 'a v2 client, JSON and event-stream answers, modern era', start: () => startV2Server('modern'), run: (url: URL) => runV2Session(url, 'pin') },
    { name: 'a v1 client, Streamable HTTP with a session, legacy era', start: () => startV1SessionServer(), run: (url: URL) => runV1HttpSession(url) },
  ])('$name: every request the client saw answered is counted served', async ({ start, run }) => {
    peer = await start();
    relay = await startBomUpstream(new URL(peer.url));
    service = await startTestService(new URL(`${relay.origin}${new URL(peer.url).pathname}`));
    const summary = await run(new URL(new URL(peer.url).pathname, service.sidecarUrl));
    expect(summary.echo).toMatch(/^hi/);
    expect(summary.sum).toBe('3');
    expect(relay.marked()).toBeGreaterThanOrEqual(3);
    expect(await service.flush()).toBe(true);
    const outcomes = await trafficTotals(service, 'outcome', { kind: 'request' });
    expect(outcomes).toEqual({ served: expect.any(Number) });
    const methods = await trafficTotals(service, 'method', { kind: 'request' });
    expect(methods['tools/call']).toBe(2);
    expect(methods['tools/list']).toBe(1);
  });
});
