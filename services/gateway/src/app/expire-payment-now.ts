import type { PublicPayment } from '@sika/public-api';

import type { Payments, Scope } from './ports';

/**
 * POST /v1/test_helpers/payments/{id}/expire: a test payment that is not final expires now (payment.expired),
 * its expires_at moved to now; a final one is payment_already_final, from payments.
 */
export class ExpirePaymentNow {
  constructor(private readonly deps: { payments: Payments }) {}

  execute(scope: Scope, paymentId: string): Promise<PublicPayment> {
    return this.deps.payments.expireNow(scope, paymentId);
  }
}
