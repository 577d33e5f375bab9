import { describe, expect, test } from 'vitest';
import { isPublicAddress } from '../../server/identity/is-public-address.js';

describe('isPublicAddress', () => {
  test.each([
    ['8.8.8.8'], ['1.1.1.1'], ['100.128.0.1'], ['172.32.0.1'], ['2606:4700::1111'], ['::ffff:8.8.8.8'], ['64:ff9b::808:808'], ['2002:808:808::1'],
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test.each([
    ['127.0.0.1', 'loopback'], ['::1', 'loopback'], ['0.0.0.0', 'unspecified'], ['::', 'unspecified'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'], ['fd12:3456::1', 'unique local'],
    ['169.254.169.254', 'link-local (cloud metadata)'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local with a zone'],
    ['100.64.0.1', 'carrier-grade NAT'], ['100.127.255.255', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'], ['ff02::1', 'multicast'], ['255.255.255.255', 'broadcast'], ['192.0.2.1', 'documentation'], ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'], ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'], ['64:ff9b::a00:1', 'private through NAT64'], ['2002:c0a8:101::1', 'private through 6to4'],
    ['localhost', 'no address at all'], ['', 'no address at all'],
  ])('%s is not public (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
