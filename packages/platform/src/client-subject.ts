import ipaddr from 'ipaddr.js';

/**
 * What a per-address limit counts for a client address: an IPv4 address as it is (an IPv4-mapped IPv6
 * address as the IPv4 address it maps to), an IPv6 address as its /64. One subscriber, home or phone, is
 * handed a whole /64 (RFC 6177), so counting single IPv6 addresses would give each client 2^64 fresh limits.
 * Anything unparsable is counted as it came, so it still has a limit of its own.
 */
export function clientSubjectOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${ipv6.toString()}/64`);
  return `${network.toString()}/64`;
}
