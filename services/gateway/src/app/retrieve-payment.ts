import type { PublicPayment } from '@sika/public-api';

import type { Payments, Scope } from './ports';

/** Spec §4.3. Another merchant's payment, or one of the other mode, is resource_missing from payments. */
export class RetrievePayment {
  constructor(private readonly deps: { payments: Payments }) {}

  execute(scope: Scope, paymentId: string): Promise<PublicPayment> {
    return this.deps.payments.retrieve(scope, paymentId);
  }
}
