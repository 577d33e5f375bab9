import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/** Splits `host:port` (IPv6 hosts in brackets). */
export function parseHostPort(value: string): { host: string; port: number } {
  const at = value.lastIndexOf(':');
  const host = value.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(value.slice(at + 1)) };
}

/** Starts listening and answers the URL the server is reachable at. */
export function listen(server: Server, hostPort: string): Promise<URL> {
  const { host, port } = parseHostPort(hostPort);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      const scheme = 'setSecureContext' in server ? 'https' : 'http';
      resolve(new URL(`${scheme}://${shown}:${address.port}`));
    });
  });
}
