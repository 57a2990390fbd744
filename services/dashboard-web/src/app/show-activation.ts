import type { MerchantSummary, PayoutAccountSummary, Peers } from './ports';

export interface ActivationView {
  merchant: MerchantSummary;
  /** The live payout account, whatever its state; activation needs it verified. */
  livePayoutAccount: PayoutAccountSummary | undefined;
}

/** The go-live page: where the merchant stands, and whether its live payout account is ready. */
export class ShowActivation {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants' | 'payouts'> }) {}

  async execute(merchantId: string): Promise<ActivationView> {
    const { merchants, payouts } = this.dependencies.peers;
    const [merchant, live] = await Promise.all([
      merchants.get(merchantId),
      payouts.account({ merchantId, livemode: true }),
    ]);
    return { merchant, livePayoutAccount: live.account };
  }
}
