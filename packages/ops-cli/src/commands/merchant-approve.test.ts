import { merchantsV1, payoutsV1 } from '@sika/contracts';

import type { Services } from '../services';
import { ApprovalRefused, approveActivation } from './merchant-approve';

const { ActivationStatus } = merchantsV1;
const { PayoutAccountStatus } = payoutsV1;
const MERCHANT = 'mer_3kTMd9Qx0bW7vYcN1LzR8aPf';

/** The calls the command makes, answering from a fixed activation status and live payout account status. */
function servicesWith(
  activation: merchantsV1.ActivationStatus,
  payoutAccount: payoutsV1.PayoutAccountStatus | undefined,
): Pick<Services, 'getMerchant' | 'getPayoutAccount' | 'approveActivation'> & { approved: string[] } {
  const approved: string[] = [];
  const merchant = (status: merchantsV1.ActivationStatus) =>
    ({
      id: MERCHANT,
      liveEnabled: status === ActivationStatus.ACTIVATION_STATUS_APPROVED,
      activation: {
        status,
        legalName: 'Boutique Adjoua SARL',
        requestedAt: new Date('2026-11-25T10:00:00Z'),
      },
    }) as merchantsV1.Merchant;
  return {
    approved,
    getMerchant: async () => merchant(activation),
    getPayoutAccount: async () =>
      ({
        account: payoutAccount === undefined ? undefined : { status: payoutAccount },
      }) as payoutsV1.GetPayoutAccountResponse,
    approveActivation: async (merchantId) => {
      approved.push(merchantId);
      return merchant(ActivationStatus.ACTIVATION_STATUS_APPROVED);
    },
  };
}

describe('approveActivation', () => {
  it('approves a pending request of a merchant whose live payout account is verified', async () => {
    const services = servicesWith(
      ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW,
      PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_VERIFIED,
    );
    await expect(approveActivation(services, { merchantId: MERCHANT })).resolves.toMatchObject({
      merchant_id: MERCHANT,
      live_enabled: true,
      activation: { status: 'approved', details: { legal_name: 'Boutique Adjoua SARL' } },
    });
    expect(services.approved).toEqual([MERCHANT]);
  });

  it.each([
    [
      'no request',
      ActivationStatus.ACTIVATION_STATUS_NOT_REQUESTED,
      PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_VERIFIED,
      'has not requested activation',
    ],
    [
      'an approved request',
      ActivationStatus.ACTIVATION_STATUS_APPROVED,
      PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_VERIFIED,
      'is already activated',
    ],
    [
      'no live payout account',
      ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW,
      undefined,
      'has no verified live payout account',
    ],
    [
      'an unconfirmed live payout account',
      ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW,
      PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_AWAITING_CONFIRMATION,
      'has no verified live payout account',
    ],
  ])('refuses a merchant with %s, approving nothing', async (_case, activation, account, message) => {
    const services = servicesWith(activation, account);
    const refusal = approveActivation(services, { merchantId: MERCHANT });
    await expect(refusal).rejects.toThrow(ApprovalRefused);
    await expect(refusal).rejects.toThrow(message);
    expect(services.approved).toEqual([]);
  });
});
