import type { MerchantSummary, Peers } from './ports';

/** The signed-in person's merchant: its name, and whether live is enabled. */
export class GetMerchant {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'merchants'> }) {}

  execute(merchantId: string): Promise<MerchantSummary> {
    return this.dependencies.peers.merchants.get(merchantId);
  }
}
