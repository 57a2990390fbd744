import { AppError } from '@sika/platform';
import type { Clock } from '@sika/platform';

import { opensCheckout } from '../domain/checkout-link';
import type { CheckoutLink } from '../domain/checkout-link';
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
  /** CHECKOUT_TOKEN_KEY, the key payments signs checkout_url with. */
  tokenKey: string;
}

export function paymentMissing(): AppError {
  return new AppError('resource_missing', 'No such payment.', { param: 'payment_id' });
}

/**
 * The payment a link opens, or resource_missing, before payments is asked: a missing, wrong or foreign token
 * is the same 404 as an unknown payment.
 */
export function openedPaymentId(link: CheckoutLink, tokenKey: string): string {
  if (!opensCheckout(link, tokenKey)) throw paymentMissing();
  return link.paymentId;
}

/** The customer opened checkout_url (or the page reloaded): the payment and the screen it calls for. */
export class ShowCheckout {
  constructor(private readonly dependencies: ShowCheckoutDependencies) {}

  async execute(link: CheckoutLink): Promise<CheckoutView> {
    const paymentId = openedPaymentId(link, this.dependencies.tokenKey);
    const payment = await this.dependencies.payments.getCheckoutPayment(paymentId);
    return { payment, screen: checkoutScreenOf(payment, this.dependencies.clock.now()) };
  }
}
