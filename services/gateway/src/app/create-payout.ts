import type { PublicPayout } from '@sika/public-api';
import { payoutRequestFingerprint } from '@sika/rules';

import type { PayoutCreationInput } from '../domain/request-parts';
import type { Payouts, Scope } from './ports';

/**
 * Spec §4.7. The Idempotency-Key is required here (decided: a payout moves the merchant's money out, and a
 * retry without a key could pay twice); payouts keeps it with the payout. An absent body, `{}` and
 * `{"amount": null}` are the same request: the whole available balance.
 */
export class CreatePayout {
  constructor(private readonly deps: { payouts: Payouts }) {}

  execute(scope: Scope, input: PayoutCreationInput, idempotencyKey: string): Promise<PublicPayout> {
    const amount = input.amount ?? undefined;
    return this.deps.payouts.create(scope, amount, payoutRequestFingerprint(amount), idempotencyKey);
  }
}
