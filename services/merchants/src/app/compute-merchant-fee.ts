import { computeFee } from '../domain/fee';
import type { FeeRule, FeeSplit } from '../domain/fee';
import type { GetMerchant } from './get-merchant';

export interface MerchantFee extends FeeSplit {
  feeRule: FeeRule;
}

/** The merchant's fee rule applied to an amount (already checked to be ≥ 1 at the edge). */
export class ComputeMerchantFee {
  constructor(private readonly dependencies: { getMerchant: GetMerchant }) {}

  async execute({ merchantId, amount }: { merchantId: string; amount: bigint }): Promise<MerchantFee> {
    const { feeRule } = await this.dependencies.getMerchant.execute({ merchantId });
    return { ...computeFee(amount, feeRule), feeRule };
  }
}
