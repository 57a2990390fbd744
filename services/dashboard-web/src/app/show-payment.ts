import type { PublicPayment } from '@sika/public-api';

import type { Peers } from './ports';
import type { Scope } from './scope';

/** One payment of the merchant in this mode, with its attempts, in the API's shape. */
export class ShowPayment {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payments'> }) {}

  execute(scope: Scope, paymentId: string): Promise<PublicPayment> {
    return this.dependencies.peers.payments.get(scope, paymentId);
  }
}
