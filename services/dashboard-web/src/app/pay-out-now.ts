import type { Scope } from '@sika/platform/pure';
import type { PublicPayout } from '@sika/public-api';

import { checkPayoutFormKey, parsePayoutAmount } from '../domain/payout-request';
import type { Peers } from './ports';

/** "Pay out now": an amount or the whole available balance, once per form (its idempotency key). */
export class PayOutNow {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts'> }) {}

  execute(
    scope: Scope,
    form: { choice: string; amount: string; idempotencyKey: string },
  ): Promise<PublicPayout> {
    const idempotencyKey = checkPayoutFormKey(form.idempotencyKey);
    const amount = parsePayoutAmount(form.choice, form.amount);
    return this.dependencies.peers.payouts.create(scope, { amount, idempotencyKey });
  }
}
