import { maskAlias, type Clock, type Logger } from '@sika/platform';

import type { PayoutTransferStore } from './ports';

export interface PayoutTransferRequest {
  livemode: boolean;
  payoutId: string;
  payeeAlias: string;
  amount: bigint;
  reason: string;
}

/**
 * payouts.transfer.requested, in the consumer's transaction: a reserved payout to send. Recorded once per
 * payout (a redelivery finds it), then sent by SendPayoutTransfers, whose loop the commit wakes.
 */
export class RequestPayoutTransfer {
  constructor(
    private readonly deps: {
      store: PayoutTransferStore;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async execute(request: PayoutTransferRequest, tx: unknown): Promise<void> {
    const result = await this.deps.store.recordRequest(tx, { ...request, at: this.deps.clock.now() });
    this.deps.logger.info(
      {
        payout_id: request.payoutId,
        livemode: request.livemode,
        payee_masked: maskAlias(request.payeeAlias),
        result,
      },
      'payout transfer requested',
    );
  }
}
