import { Resolver } from 'node:dns/promises';
import type { HostResolver, Resolution } from '../app/ports';
import { describeNetworkError } from './network-error';

/** `localhost` and its subdomains are the machine itself (RFC 6761), never asked of a DNS server. */
const LOCALHOST = /^(.+\.)?localhost\.?$/i;
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

/** Answers that only say a name has no address of one family: the other family may have one. */
const NO_ADDRESS_CODES = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * Resolves with c-ares (node's dns.Resolver) rather than getaddrinfo: getaddrinfo runs on libuv's four
 * threads and cannot be cancelled, so one merchant's domain whose DNS never answers would hold them and stall
 * every merchant's deliveries (and anything else using the pool). Each lookup has its own Resolver, cancelled
 * past `timeoutMs`; A and AAAA are asked together and every address either answered is returned, for the
 * target rules to vet all of them. `servers` replaces the system's (resolv.conf) when given.
 */
export class DnsHostResolver implements HostResolver {
  constructor(private readonly options: { timeoutMs: number; servers: readonly string[] }) {}

  async resolve(host: string): Promise<Resolution> {
    if (LOCALHOST.test(host)) return { addresses: LOOPBACK_ADDRESSES };
    const { timeoutMs, servers } = this.options;
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers.length > 0) resolver.setServers([...servers]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, timeoutMs);
    try {
      const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
      const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
      if (addresses.length > 0) return { addresses };
      if (timedOut) return { error: `DNS lookup timeout after ${timeoutMs} ms` };
      const reasons = answers.flatMap((answer) => (answer.status === 'rejected' ? [answer.reason] : []));
      const failure = reasons.find((reason) => !NO_ADDRESS_CODES.has(codeOf(reason))) ?? reasons[0];
      return { error: failure === undefined ? `no address for ${host}` : describeNetworkError(failure) };
    } finally {
      clearTimeout(timer);
    }
  }
}

function codeOf(error: unknown): string {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' ? code : '';
}
