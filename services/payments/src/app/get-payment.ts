import { AppError } from '@sika/platform';
import type { Payment } from '../domain/payment';
import type { Scope } from './ports';
import type { UseCaseContext } from './ports';

/** GET /v1/payments/{id} (spec §4.3) and the hosted page's read. */
export class GetPayment {
  constructor(private readonly context: UseCaseContext) {}

  /** Another merchant's or mode's payment is resource_missing, exactly as one that does not exist. */
  async inScope(scope: Scope, paymentId: string): Promise<Payment> {
    const payment = await this.context.payments.findInScope(this.context.db.reader, scope, paymentId);
    if (payment === null) throw new AppError('resource_missing', 'No such payment.', { param: 'id' });
    return payment;
  }

  /** The hosted page knows the payment by its id alone: the id is the capability the merchant handed out. */
  async forCheckout(paymentId: string): Promise<Payment> {
    const payment = await this.context.payments.findById(this.context.db.reader, paymentId);
    if (payment === null) throw new AppError('resource_missing', 'No such payment.', { param: 'payment_id' });
    return payment;
  }
}
