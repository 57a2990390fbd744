import type { Clock } from '@sika/platform';
import { merchantMissing } from './merchant-missing';
import type { ActiveKey, MerchantStore } from './ports';

/**
 * The merchant's working keys, described by mode, last four characters and date, and for a replaced key still
 * working, when it stops: never the key itself.
 */
export class ListSecretKeys {
  constructor(private readonly dependencies: { store: MerchantStore; clock: Clock }) {}

  async execute({ merchantId }: { merchantId: string }): Promise<ActiveKey[]> {
    const { store, clock } = this.dependencies;
    const keys = await store.listActiveKeys(merchantId, clock.now());
    if (keys === undefined) throw merchantMissing(merchantId);
    return keys;
  }
}
