import { createServer } from 'node:net';

/**
 * A loopback port nobody listens on now, for a server whose own URL must be known before it starts
 * (an OAuth resource identifier, say). Another process could take it first; on a test machine that
 * is rare, and the start then fails loudly rather than testing the wrong thing.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
