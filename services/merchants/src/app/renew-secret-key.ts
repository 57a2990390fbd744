import { AppError } from '@sika/platform';
import { issueSecretKey } from '../domain/secret-key';
import type { Clock } from '@sika/platform';

import { merchantMissing } from './merchant-missing';
import type { MerchantStore } from './ports';

/**
 * Issues a new key for a mode and revokes the previous one at the same instant (one transaction), so a
 * merchant always has exactly one working key per mode once it has had one.
 *
 * Live mode: a live key is issued only once an operator has approved the merchant's activation
 * (ApproveActivation sets `live_enabled`), so issuing one never opens live mode by itself. The check runs
 * under the same row lock as the issue, so a key cannot slip in beside a concurrent change of live mode; live
 * keys also authenticate only while `live_enabled` holds.
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
    const outcome = await store.replaceActiveKey(merchantId, record);
    if (outcome === 'missing') throw merchantMissing(merchantId);
    if (outcome === 'live_disabled') {
      throw new AppError(
        'account_not_activated',
        'Live keys are issued once the account is activated for live use: request activation and wait for its approval.',
        { param: 'livemode' },
      );
    }
    return { secretKey };
  }
}
