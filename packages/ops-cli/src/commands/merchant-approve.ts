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
 * reviews accounts), once the merchant asked (a pending request). ApproveActivation then enables live mode;
 * the live key is issued afterwards (merchant:renew-key), and the merchant registers its live payout account:
 * that look-up asks the participant bank for a holder's name, so it waits for this check of the business.
 * Live payouts are refused until the account is verified; the balance waits for it.
 */
export async function approveActivation(
  services: Pick<Services, 'getMerchant' | 'approveActivation'>,
  { merchantId }: { merchantId: string },
): Promise<ActivationApproved> {
  const { status } = activationViewOf(await services.getMerchant(merchantId));
  if (status === 'not_requested') {
    throw new ApprovalRefused(`${merchantId} has not requested activation: there is nothing to approve`);
  }
  if (status === 'approved') {
    throw new ApprovalRefused(`${merchantId} is already activated for live use`);
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
