import type { PublicPayout } from '@sika/public-api';

import type { Peers } from './ports';
import type { Scope } from './scope';

export class ShowPayout {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts'> }) {}

  execute(scope: Scope, payoutId: string): Promise<PublicPayout> {
    return this.dependencies.peers.payouts.get(scope, payoutId);
  }
}
