import { addressRefusal, hostOf, isIpAddress, type TargetRules, urlRefusal } from '../domain/webhook-target';
import type { HostResolver } from './ports';

/**
 * A URL deliveries may go to, and the one address to connect to; or why not: `refused` by the rules
 * (worded to follow `url `), or `unresolved` when its host has no address now.
 */
export type VettedTarget = { address: string } | { refused: string } | { unresolved: string };

/**
 * Applies the target rules to a webhook URL: its scheme and port, then every address its host resolves to
 * (a literal IP is its own address). Registration vets a URL once; every delivery attempt vets it again and
 * connects to the address vetted, since what a name resolves to can change between the two, or between a
 * check and a connection (DNS rebinding).
 */
export class WebhookTargets {
  constructor(private readonly deps: { resolver: HostResolver; rules: TargetRules }) {}

  async vet(url: string, livemode: boolean): Promise<VettedTarget> {
    const { resolver, rules } = this.deps;
    const parsed = new URL(url);
    const refusedUrl = urlRefusal(parsed, livemode, rules);
    if (refusedUrl !== undefined) return { refused: refusedUrl };
    const host = hostOf(parsed);
    const resolution = isIpAddress(host) ? { addresses: [host] } : await resolver.resolve(host);
    if ('error' in resolution) return { unresolved: resolution.error };
    const refused = addressRefusal(host, resolution.addresses, rules);
    if (refused !== undefined) return { refused };
    const [address] = resolution.addresses;
    return address === undefined ? { unresolved: `no address for ${host}` } : { address };
  }
}
