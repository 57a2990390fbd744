import { AppError } from '@sika/platform';

import type { ActivationDetails, Peers } from './ports';

/**
 * The merchant asks to go live. A verified live payout account comes first: the money collected live must
 * have somewhere to go, and the operator's approval (`sika-ops merchant:approve`) requires it too. merchants
 * validates the details and keeps the request for the operator's review.
 */
export class RequestActivation {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants' | 'payouts'> }) {}

  async execute(merchantId: string, details: ActivationDetails): Promise<void> {
    const { merchants, payouts } = this.dependencies.peers;
    const { account } = await payouts.account({ merchantId, livemode: true });
    if (account?.status !== 'verified') {
      throw new AppError(
        'payout_account_missing',
        'Register and confirm a live payout account before asking to go live.',
        { param: 'payout_account' },
      );
    }
    await merchants.requestActivation(merchantId, details);
  }
}
