import { merchantsV1 } from '@sika/contracts';

import type { Services } from '../services';
import { ApprovalRefused, approveActivation } from './merchant-approve';

const { ActivationStatus } = merchantsV1;
const MERCHANT = 'mer_3kTMd9Qx0bW7vYcN1LzR8aPf';

/** The calls the command makes, answering from a fixed activation status. */
function servicesWith(
  activation: merchantsV1.ActivationStatus,
): Pick<Services, 'getMerchant' | 'approveActivation'> & { approved: string[] } {
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
    approveActivation: async (merchantId) => {
      approved.push(merchantId);
      return merchant(ActivationStatus.ACTIVATION_STATUS_APPROVED);
    },
  };
}

describe('approveActivation', () => {
  it('approves a pending request, before any live payout account exists', async () => {
    const services = servicesWith(ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW);
    await expect(approveActivation(services, { merchantId: MERCHANT })).resolves.toMatchObject({
      merchant_id: MERCHANT,
      live_enabled: true,
      activation: { status: 'approved', details: { legal_name: 'Boutique Adjoua SARL' } },
    });
    expect(services.approved).toEqual([MERCHANT]);
  });

  it.each([
    ['no request', ActivationStatus.ACTIVATION_STATUS_NOT_REQUESTED, 'has not requested activation'],
    ['an approved request', ActivationStatus.ACTIVATION_STATUS_APPROVED, 'is already activated'],
  ])('refuses a merchant with %s, approving nothing', async (_case, activation, message) => {
    const services = servicesWith(activation);
    const refusal = approveActivation(services, { merchantId: MERCHANT });
    await expect(refusal).rejects.toThrow(ApprovalRefused);
    await expect(refusal).rejects.toThrow(message);
    expect(services.approved).toEqual([]);
  });
});
