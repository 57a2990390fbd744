import type { KeySummary, Peers } from './ports';
import type { Scope } from './scope';

/** The mode's active secret key, known by its last four characters and creation date only. */
export class ShowKeys {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'> }) {}

  async execute(scope: Scope): Promise<KeySummary | undefined> {
    const keys = await this.dependencies.peers.merchants.keys(scope.merchantId);
    return keys.find((key) => key.livemode === scope.livemode);
  }
}
