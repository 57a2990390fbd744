import { AppError } from '@sika/platform';
import type { Clock } from '@sika/platform';

import { isPaymentId } from '../domain/payment-id';
import type { CheckoutPayment } from '../domain/payment';
import { checkoutScreenOf } from '../domain/screen';
import type { CheckoutScreen } from '../domain/screen';
import type { PaymentsPort } from './ports';

export interface CheckoutView {
  payment: CheckoutPayment;
  screen: CheckoutScreen;
}

export interface ShowCheckoutDependencies {
  payments: PaymentsPort;
  clock: Clock;
}

export function paymentMissing(): AppError {
  return new AppError('resource_missing', 'No such payment.', { param: 'payment_id' });
}

/** The customer opened checkout_url (or the page reloaded): the payment and the screen it calls for. */
export class ShowCheckout {
  constructor(private readonly dependencies: ShowCheckoutDependencies) {}

  async execute(paymentId: string): Promise<CheckoutView> {
    if (!isPaymentId(paymentId)) throw paymentMissing();
    const payment = await this.dependencies.payments.getCheckoutPayment(paymentId);
    return { payment, screen: checkoutScreenOf(payment, this.dependencies.clock.now()) };
  }
}
