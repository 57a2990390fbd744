import type { MerchantSummary, Peers } from './ports';

export interface ActivationView {
  merchant: MerchantSummary;
}

/** The go-live page: where the merchant's request stands. */
export class ShowActivation {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'> }) {}

  async execute(merchantId: string): Promise<ActivationView> {
    return { merchant: await this.dependencies.peers.merchants.get(merchantId) };
  }
}
