import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { AppError } from '../lib/app-error.js';

export interface OwnHosts {
  /** The configured dashboard address (host:port); its host is accepted on the port the API listens on. */
  dashboard: string;
  /** Names an operator serves the dashboard under (behind a reverse proxy): `name` for any port, `name:port` for one. */
  allowed: readonly string[];
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const WILDCARDS = new Set(['0.0.0.0', '[::]', '::']);

function splitHost(host: string): { name: string; port: string | undefined } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host);
  return { name: match?.[1] ?? host, port: match?.[2] === '' ? undefined : match?.[2] };
}

function unmapped(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

/**
 * Whether a Host header names this API. A DNS-rebinding page reaches the loopback port under its own
 * name, so only names the operator chose pass: loopback names and the configured address on the port
 * the connection came in on, an IP literal equal to that connection's local address (an address
 * cannot be rebound), and `allowed`.
 */
function isOwnHost(host: string, hosts: OwnHosts, local: { address: string | undefined; port: number | undefined }): boolean {
  const given = host.trim().toLowerCase().replace(/\.(?=$|:)/, '');
  const { name, port } = splitHost(given);
  for (const entry of hosts.allowed) {
    const wanted = entry.toLowerCase();
    if (wanted === given || (splitHost(wanted).port === undefined && wanted === name)) return true;
  }
  if (String(port ?? '80') !== String(local.port)) return false;
  if (LOOPBACK_NAMES.has(name)) return true;
  const configured = splitHost(hosts.dashboard.toLowerCase()).name;
  if (name === configured && !WILDCARDS.has(configured)) return true;
  const literal = name.replace(/^\[(.*)\]$/, '$1');
  return isIP(literal) !== 0 && literal === unmapped(local.address).toLowerCase();
}

/** Refuses (421, naming the Host) every request whose Host header does not name this API. */
export function requireOwnHost(hosts: OwnHosts): RequestHandler {
  return (req, _res, next) => {
    const host = req.headers.host;
    if (host !== undefined && isOwnHost(host, hosts, { address: req.socket.localAddress, port: req.socket.localPort })) return next();
    const shown = host === undefined ? '(none)' : JSON.stringify(host.slice(0, 255));
    next(new AppError('misdirected', `this API does not answer to Host ${shown}; open it at a loopback address or a name listed in allowedHosts`, 'Host'));
  };
}
