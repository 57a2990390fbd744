import { AppError } from '@sika/platform';
import type { PublicPayment } from '@sika/public-api';
import { requestWaitingAtTheBank } from '@sika/rules';

import type { Payments, Scope, TestBank } from './ports';

/**
 * POST /v1/test_helpers/payments/{id}/pay: the customer of a request waiting at their bank (alias …04 or
 * …07) pays it now, through test mode's bank, as the dashboard's "Simulate the customer's payment" does.
 * The payment then changes by the ordinary path (the scheme's callback, the credit, payment.succeeded), a
 * moment after this answer: the payment is answered as it is once the bank has accepted.
 */
export class PayPaymentNow {
  constructor(private readonly deps: { payments: Payments; testBank: TestBank | undefined }) {}

  async execute(scope: Scope, paymentId: string): Promise<PublicPayment> {
    const { payments, testBank } = this.deps;
    if (testBank === undefined) {
      throw new AppError('test_mode_only', "This deployment runs no test mode's bank to pay with.");
    }
    const waiting = requestWaitingAtTheBank((await payments.retrieve(scope, paymentId)).attempts);
    if (waiting === undefined) {
      throw new AppError(
        'no_request_waiting',
        "No request of this payment is waiting at the customer's bank.",
      );
    }
    await testBank.pay(waiting.tx_id);
    return payments.retrieve(scope, paymentId);
  }
}
