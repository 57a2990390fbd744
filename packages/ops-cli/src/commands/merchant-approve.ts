import { payoutsV1 } from '@sika/contracts';

import type { Services } from '../services';
import { activationViewOf, describeActivation, type ActivationView } from './merchant-show';

export interface ActivationApproved {
  merchant_id: string;
  live_enabled: boolean;
  activation: ActivationView;
}

/** The operator may not approve this merchant yet: exit status 1, the reason on stderr. */
export class ApprovalRefused extends Error {
  override readonly name = 'ApprovalRefused';
}

/**
 * The operator's review of a merchant's activation for live use (decided: approved by a person, as Stripe
 * reviews accounts). Approved only when the merchant asked (a pending request) and live payouts have
 * somewhere to go (a verified live payout account), so a live merchant's money can always be paid out.
 * ApproveActivation then enables live mode; the live key is issued afterwards (merchant:renew-key).
 */
export async function approveActivation(
  services: Pick<Services, 'getMerchant' | 'getPayoutAccount' | 'approveActivation'>,
  { merchantId }: { merchantId: string },
): Promise<ActivationApproved> {
  const { status } = activationViewOf(await services.getMerchant(merchantId));
  if (status === 'not_requested') {
    throw new ApprovalRefused(`${merchantId} has not requested activation: there is nothing to approve`);
  }
  if (status === 'approved') {
    throw new ApprovalRefused(`${merchantId} is already activated for live use`);
  }
  const { account } = await services.getPayoutAccount({ scope: { merchantId, livemode: true } });
  if (account?.status !== payoutsV1.PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_VERIFIED) {
    throw new ApprovalRefused(
      `${merchantId} has no verified live payout account: register one with ` +
        `sika-ops payout-account:set --merchant ${merchantId} --mode live --alias ALIAS, ` +
        'then confirm its holder name with sika-ops payout-account:confirm',
    );
  }
  const merchant = await services.approveActivation(merchantId);
  return {
    merchant_id: merchant.id,
    live_enabled: merchant.liveEnabled,
    activation: activationViewOf(merchant),
  };
}

export function describeActivationApproved(result: ActivationApproved): string {
  return [
    `Live mode enabled for ${result.merchant_id}.`,
    ...describeActivation(result.activation),
    `Issue its live key with: sika-ops merchant:renew-key --merchant ${result.merchant_id} --mode live`,
  ].join('\n');
}
