import { merchantMissing } from './merchant-missing';
import type { MerchantRecord, MerchantStore } from './ports';

export class GetMerchant {
  constructor(private readonly dependencies: { store: MerchantStore }) {}

  async execute({ merchantId }: { merchantId: string }): Promise<MerchantRecord> {
    const merchant = await this.dependencies.store.findMerchant(merchantId);
    if (merchant === undefined) throw merchantMissing(merchantId);
    return merchant;
  }
}
