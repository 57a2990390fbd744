import { AppError } from '@sika/platform';

import { expireNow } from '../domain/lifecycle';
import type { Payment } from '../domain/payment';
import type { Scope, UseCaseContext } from './ports';

/**
 * POST /v1/test_helpers/payments/{id}/expire: a test payment that is not final expires now, with
 * payment.expired, as at its deadline; so a merchant's tests need not wait for expires_at.
 */
export class ExpirePaymentNow {
  constructor(private readonly context: UseCaseContext) {}

  async execute(scope: Scope, paymentId: string): Promise<Payment> {
    const { db, payments, clock } = this.context;
    const expired = await db.transaction(async (tx) => {
      const current = await payments.lockInScope(tx, scope, paymentId);
      if (current === null) throw new AppError('resource_missing', 'No such payment.', { param: 'id' });
      const now = clock.now();
      const outcome = expireNow(current, now);
      await payments.moveDeadline(tx, current.id, now);
      await payments.record(tx, current, outcome, now);
      return outcome.payment;
    });
    this.context.eventsCommitted();
    return expired;
  }
}
