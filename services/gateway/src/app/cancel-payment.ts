import type { PublicPayment } from '@sika/public-api';

import type { Payments, Scope } from './ports';

/** Spec §4.4: payment_already_final (409) comes from payments when the payment is settled. */
export class CancelPayment {
  constructor(private readonly deps: { payments: Payments }) {}

  execute(scope: Scope, paymentId: string, idempotencyKey?: string): Promise<PublicPayment> {
    return this.deps.payments.cancel(scope, paymentId, idempotencyKey);
  }
}
