import { merchantMissing } from './merchant-missing';
import type { ActiveKey, MerchantStore } from './ports';

/** The merchant's working keys, described by mode, last four characters and date: never the key itself. */
export class ListSecretKeys {
  constructor(private readonly dependencies: { store: MerchantStore }) {}

  async execute({ merchantId }: { merchantId: string }): Promise<ActiveKey[]> {
    const keys = await this.dependencies.store.listActiveKeys(merchantId);
    if (keys === undefined) throw merchantMissing(merchantId);
    return keys;
  }
}
