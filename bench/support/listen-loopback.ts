import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** Listens on an ephemeral loopback port and answers its URL. */
export function listenLoopback(server: Server): Promise<URL> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  });
}
