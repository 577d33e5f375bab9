import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCertificates } from './make-certificates.js';

/** How one path answers: a JSON document, a raw answer, or no answer at all. */
export type DocumentAnswer = { json: unknown } | { status: number; headers?: Record<string, string>; body?: string } | { hang: true };

export interface ClientDocuments {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** The test CA that signed the server's certificate (for 127.0.0.1 and each of `serverNames`). */
  caFile: string;
  /** The CA as PEM text. */
  ca: string;
  /** Every request received, in order: its path and Host header. */
  requests: { path: string; host: string | undefined }[];
  serve(path: string, answer: DocumentAnswer): void;
  close(): Promise<void>;
}

/**
 * A real HTTPS server on 127.0.0.1, with a certificate from a throwaway test CA, that serves Client
 * ID Metadata Documents (or whatever a test sets) by path, and remembers every request it received.
 */
export async function startClientDocuments(serverNames: readonly string[] = []): Promise<ClientDocuments> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-cimd-'));
  const certs = makeCertificates(dir, 'unused-client', serverNames);
  const answers = new Map<string, DocumentAnswer>();
  const requests: ClientDocuments['requests'] = [];
  const server: Server = createServer({ cert: readFileSync(certs.serverCertFile), key: readFileSync(certs.serverKeyFile) }, (req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, host: req.headers.host });
    const answer = answers.get(path);
    if (answer === undefined) return void res.writeHead(404).end();
    if ('hang' in answer) return;
    if ('json' in answer) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
    res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    caFile: certs.caFile,
    ca: readFileSync(certs.caFile, 'utf8'),
    requests,
    serve: (path, answer) => void answers.set(path, answer),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
