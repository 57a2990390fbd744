import { AppError } from '@sika/platform';
import type { Clock } from '@sika/platform';

import type { ActivationDetails } from '../domain/activation';
import { merchantMissing } from './merchant-missing';
import type { MerchantRecord, MerchantStore } from './ports';

/**
 * The merchant asks to use live mode (spec: "activate the account for live use"). Decided: an operator
 * reviews the details before live mode opens, as Stripe reviews accounts, so the request only waits
 * (`pending_review`); asking again before the review corrects the details.
 */
export class RequestActivation {
  constructor(private readonly dependencies: { store: MerchantStore; clock: Clock }) {}

  async execute({
    merchantId,
    ...details
  }: ActivationDetails & { merchantId: string }): Promise<MerchantRecord> {
    const { store, clock } = this.dependencies;
    const outcome = await store.requestActivation(merchantId, details, clock.now());
    if (outcome === 'missing') throw merchantMissing(merchantId);
    if (outcome === 'already_approved') {
      throw new AppError(
        'account_already_activated',
        `The account '${merchantId}' is already activated for live use.`,
        { param: 'merchant_id' },
      );
    }
    return outcome;
  }
}
