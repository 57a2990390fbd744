import type { Clock, Logger } from '@sika/platform';

import type { FundReturnStore } from './ports';

export interface RefundRequest {
  livemode: boolean;
  txId: string;
  /** The transfer to return. */
  end2endId: string;
  amount: bigint;
}

/**
 * payments.refund.requested, in the consumer's transaction: payments decided this transfer goes back to the
 * customer. Recorded once per transfer (a redelivery finds it), then sent by SendFundReturns, whose loop the
 * commit wakes.
 */
export class RequestFundReturn {
  constructor(
    private readonly deps: {
      store: FundReturnStore;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async execute(request: RefundRequest, tx: unknown): Promise<void> {
    const result = await this.deps.store.recordRequest(tx, { ...request, at: this.deps.clock.now() });
    this.deps.logger.info(
      { tx_id: request.txId, end_to_end_id: request.end2endId, livemode: request.livemode, result },
      'fund return requested',
    );
  }
}
