import type { Scope } from '@sika/platform/pure';

import type { Peers } from './ports';

/** Cancels a payment that is not final, exactly as `POST /v1/payments/{id}/cancel` does. */
export class CancelPayment {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payments'> }) {}

  execute(scope: Scope, paymentId: string): Promise<void> {
    return this.dependencies.peers.payments.cancel(scope, paymentId);
  }
}
