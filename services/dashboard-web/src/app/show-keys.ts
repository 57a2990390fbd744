import type { Scope } from '@sika/platform/pure';

import type { KeySummary, Peers } from './ports';

/**
 * The mode's working secret keys, known by their last four characters and dates only: the current key, and a
 * replaced one still working until its `expiresAt`.
 */
export class ShowKeys {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'> }) {}

  async execute(scope: Scope): Promise<{ current?: KeySummary; previous?: KeySummary }> {
    const keys = await this.dependencies.peers.merchants.keys(scope.merchantId);
    const ofMode = keys.filter((key) => key.livemode === scope.livemode);
    const current = ofMode.find((key) => key.expiresAt === undefined);
    const previous = ofMode.find((key) => key.expiresAt !== undefined);
    return { ...(current && { current }), ...(previous && { previous }) };
  }
}
