import { renderPayment, type PublicPayment } from '@sika/public-api';

import type { PaymentsClient, Scope } from './ports';
import { present } from './present';

/** Spec §4.4: payment_already_final (409) comes from payments when the payment is settled. */
export function cancelPayment(payments: PaymentsClient) {
  return async (scope: Scope, paymentId: string, idempotencyKey?: string): Promise<PublicPayment> => {
    const { payment } = await payments.cancelPayment({ scope, paymentId, idempotencyKey });
    return renderPayment(present(payment, 'payment'));
  };
}
