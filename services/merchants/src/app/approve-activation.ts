import { AppError } from '@sika/platform';
import type { Clock } from '@sika/platform';

import { merchantMissing } from './merchant-missing';
import type { MerchantRecord, MerchantStore } from './ports';

/**
 * An operator approves a merchant's pending activation: live mode opens (`live_enabled`) and live keys can be
 * issued. Approving again changes nothing. What the operator checks first (a verified live payout account,
 * the details) is the operator's tool's business: this service knows no payout accounts.
 */
export class ApproveActivation {
  constructor(private readonly dependencies: { store: MerchantStore; clock: Clock }) {}

  async execute({ merchantId }: { merchantId: string }): Promise<MerchantRecord> {
    const { store, clock } = this.dependencies;
    const outcome = await store.approveActivation(merchantId, clock.now());
    if (outcome === 'missing') throw merchantMissing(merchantId);
    if (outcome === 'not_requested') {
      throw new AppError(
        'account_not_activated',
        `The account '${merchantId}' has not requested activation: there is nothing to approve.`,
        { param: 'merchant_id' },
      );
    }
    return outcome;
  }
}
