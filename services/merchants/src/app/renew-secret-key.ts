import { AppError, previousCredentialExpiry } from '@sika/platform';
import { issueSecretKey } from '../domain/secret-key';
import type { Clock } from '@sika/platform';

import { merchantMissing } from './merchant-missing';
import { pendingEmail } from './record-email';
import type { MerchantStore } from './ports';

/**
 * Issues a new key for a mode and revokes the previous one (one transaction): at once, or after the overlap
 * the merchant chose (`expirePreviousAfterSeconds`, up to 7 days, as Stripe's roll offers) so that its servers
 * can switch without an outage. A merchant has one new key per mode, and at most one previous key working.
 *
 * Live mode: a live key is issued only once an operator has approved the merchant's activation
 * (ApproveActivation sets `live_enabled`), so issuing one never opens live mode by itself. The check runs
 * under the same row lock as the issue, so a key cannot slip in beside a concurrent change of live mode; live
 * keys also authenticate only while `live_enabled` holds.
 *
 * With `notifyEmail`, the account's address is told in the same transaction: the email exists exactly when
 * the new key does, neither lost after a renewal nor sent for a refused one.
 */
export class RenewSecretKey {
  constructor(
    private readonly dependencies: {
      store: MerchantStore;
      pepper: string;
      clock: Clock;
      wakeRelay: (dueAt: Date) => void;
    },
  ) {}

  async execute({
    merchantId,
    livemode,
    expirePreviousAfterSeconds,
    notifyEmail,
  }: {
    merchantId: string;
    livemode: boolean;
    expirePreviousAfterSeconds?: number | undefined;
    notifyEmail?: string | undefined;
  }): Promise<{ secretKey: string; previousExpiresAt?: Date }> {
    const { store, pepper, clock, wakeRelay } = this.dependencies;
    const now = clock.now();
    const previousExpiresAt = previousCredentialExpiry(now, expirePreviousAfterSeconds);
    const { secretKey, record } = issueSecretKey(livemode, pepper, now);
    const email =
      notifyEmail === undefined
        ? undefined
        : pendingEmail(
            { merchantId, to: notifyEmail, kind: 'secret_key_renewed', livemode, sendAfterSeconds: 0 },
            now,
          );
    const outcome = await store.replaceActiveKey(merchantId, record, previousExpiresAt, email);
    if (outcome === 'missing') throw merchantMissing(merchantId);
    if (outcome === 'live_disabled') {
      throw new AppError(
        'account_not_activated',
        'Live keys are issued once the account is activated for live use: request activation and wait for its approval.',
        { param: 'livemode' },
      );
    }
    if (email !== undefined) wakeRelay(email.sendAfter);
    return { secretKey, ...(previousExpiresAt !== null && { previousExpiresAt }) };
  }
}
