import type { Clock, Logger } from '@sika/platform';

import type { FundReturnStore } from './ports';

export interface RefundRequest {
  livemode: boolean;
  txId: string;
  amount: bigint;
}

/**
 * payments.refund.requested, in the consumer's transaction: the money paid on this attempt goes back to the
 * customer. Recorded once per attempt (a redelivery finds it), then sent by SendFundReturns, whose loop the
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
      { tx_id: request.txId, livemode: request.livemode, result },
      'fund return requested',
    );
  }
}
