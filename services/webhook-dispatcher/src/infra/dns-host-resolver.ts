import { lookup } from 'node:dns/promises';
import type { HostResolver, Resolution } from '../app/ports';
import { describeNetworkError } from './network-error';

/**
 * Resolves with the system resolver (getaddrinfo, so /etc/hosts too, as any HTTP client would), every address
 * of both families. getaddrinfo cannot be cancelled: past `timeoutMs` the answer is abandoned, not awaited.
 */
export class DnsHostResolver implements HostResolver {
  constructor(private readonly timeoutMs: number) {}

  async resolve(host: string): Promise<Resolution> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Resolution>((resolve) => {
      timer = setTimeout(
        () => resolve({ error: `DNS lookup timeout after ${this.timeoutMs} ms` }),
        this.timeoutMs,
      );
    });
    const answer = lookup(host, { all: true, verbatim: true }).then(
      (addresses): Resolution => ({ addresses: addresses.map(({ address }) => address) }),
      (error: unknown): Resolution => ({ error: describeNetworkError(error) }),
    );
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
