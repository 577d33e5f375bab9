import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

export function listenLoopback(server: Server): Promise<URL> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
