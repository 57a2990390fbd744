import ipaddr from 'ipaddr.js';

/**
 * Where deliveries may go. A webhook URL is chosen by a merchant, and the dispatcher POSTs to it from inside
 * Sika's network: without these rules a URL could reach the cloud's metadata service, a database or another
 * service's port (server-side request forgery).
 */
export interface TargetRules {
  /** Loopback, private and other non-public addresses, any port, and http in live mode: local runs only. */
  allowPrivateTargets: boolean;
}

/** The ports a delivery may use: the web's own, so a URL cannot knock on a database's or a service's port. */
export const ALLOWED_PORTS: readonly number[] = [80, 443];

/** IPv6 global unicast (RFC 4291): every public IPv6 address is in it; the rest is special or unassigned. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * The range an IP address belongs to, as ipaddr.js names it (`loopback`, `private`, `linkLocal`,
 * `carrierGradeNat`, `uniqueLocal`, `multicast`, `unspecified`, `broadcast`, `reserved`…), or `public`. An
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is classified as the IPv4 address it maps to, since that is
 * where a connection to it goes; an IPv6 address outside 2000::/3 is at best `reserved`.
 */
export function classifyAddress(address: string): string {
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !ip.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
  return 'public';
}

export function isIpAddress(host: string): boolean {
  return ipaddr.isValid(host);
}

/** The host to resolve, without the brackets a URL puts around an IPv6 address. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Why a URL may not be delivered to, from the URL alone (scheme for the mode, port); undefined when it may.
 * Worded to follow `url `.
 */
export function urlRefusal(url: URL, livemode: boolean, rules: TargetRules): string | undefined {
  if (rules.allowPrivateTargets) return undefined;
  if (livemode && url.protocol !== 'https:') return 'must start with https:// in live mode';
  if (!ALLOWED_PORTS.includes(portOf(url))) return `must use port ${ALLOWED_PORTS.join(' or ')}`;
  return undefined;
}

/**
 * Why the host's addresses may not be connected to; undefined when every one is public. One non-public
 * address is enough to refuse: the connection must never have a choice that reaches inside. Worded to follow
 * `url `; a resolved name's address is not repeated, since it may be an internal one.
 */
export function addressRefusal(
  host: string,
  addresses: readonly string[],
  rules: TargetRules,
): string | undefined {
  if (rules.allowPrivateTargets) return undefined;
  for (const address of addresses) {
    const range = classifyAddress(address);
    if (range === 'public') continue;
    return isIpAddress(host)
      ? `must not point to a non-public address (${host} is ${range})`
      : `host resolves to a non-public address (${range})`;
  }
  return undefined;
}
