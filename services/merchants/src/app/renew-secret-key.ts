import { AppError } from '@sika/platform';
import { issueSecretKey } from '../domain/secret-key';
import type { Clock } from '@sika/platform';

import type { MerchantStore } from './ports';

/**
 * Issues a new key for a mode and revokes the previous one at the same instant (one transaction), so a
 * merchant always has exactly one working key per mode once it has had one.
 *
 * Live mode: the spec activates live use in the dashboard, which does not exist yet. Until it does, the
 * operator who issues a live key (CLI `merchant:renew-key --mode live`) is the activation: issuing it sets
 * `live_enabled`, and live keys authenticate only while `live_enabled` holds.
 */
export class RenewSecretKey {
  constructor(private readonly dependencies: { store: MerchantStore; pepper: string; clock: Clock }) {}

  async execute({
    merchantId,
    livemode,
  }: {
    merchantId: string;
    livemode: boolean;
  }): Promise<{ secretKey: string }> {
    const { store, pepper, clock } = this.dependencies;
    const { secretKey, record } = issueSecretKey(livemode, pepper, clock.now());
    const merchantExists = await store.replaceActiveKey(merchantId, record);
    if (!merchantExists) {
      throw new AppError('resource_missing', `No such merchant: '${merchantId}'`, { param: 'merchant_id' });
    }
    return { secretKey };
  }
}
