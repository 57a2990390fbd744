import { renderPayment, type PublicPayment } from '@sika/public-api';

import type { PaymentsClient, Scope } from './ports';
import { present } from './present';

/** Spec §4.3. Another merchant's payment, or one of the other mode, is resource_missing from payments. */
export function retrievePayment(payments: PaymentsClient) {
  return async (scope: Scope, paymentId: string): Promise<PublicPayment> => {
    const { payment } = await payments.getPayment({ scope, paymentId });
    return renderPayment(present(payment, 'payment'));
  };
}
