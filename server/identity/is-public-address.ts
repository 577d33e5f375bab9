import { BlockList, isIP } from 'node:net';

/** IPv4 ranges that are not the public internet (IANA special-purpose registry, RFC 6890 and successors). */
const NON_PUBLIC_IPV4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", the unspecified address among them (connecting to it reaches this host)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space of carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services among them
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const NON_PUBLIC_IPV6: readonly (readonly [string, number])[] = [
  ['::', 96], // unspecified, loopback, and the deprecated IPv4-compatible addresses
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

function ipv4Groups(address: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of NON_PUBLIC_IPV4) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
  // The same ranges reached through the well-known NAT64 prefix and 6to4, which carry an IPv4 address
  // inside an IPv6 one (IPv4-mapped addresses, ::ffff:a.b.c.d, BlockList matches by itself).
  NON_PUBLIC.addSubnet(`64:ff9b::${ipv4Groups(network)}`, 96 + prefix, 'ipv6');
  NON_PUBLIC.addSubnet(`2002:${ipv4Groups(network)}::`, 16 + prefix, 'ipv6');
}
for (const [network, prefix] of NON_PUBLIC_IPV6) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/**
 * Whether an IP address is on the public internet: not loopback, private (RFC 1918, fc00::/7),
 * link-local, unspecified, carrier-grade NAT, multicast, documentation or otherwise reserved, also
 * when written inside an IPv6 address (IPv4-mapped, NAT64, 6to4). Anything that is no IP address is
 * not public. Pure.
 */
export function isPublicAddress(address: string): boolean {
  // A zone index (fe80::1%eth0) names an interface of this host: never public.
  if (address.includes('%')) return false;
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
