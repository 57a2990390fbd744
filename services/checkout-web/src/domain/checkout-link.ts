import { isCheckoutToken } from '@sika/rules';

import { isPaymentId } from './payment-id';

/** What the customer's link names: the payment, and the token that lets its holder open it. */
export interface CheckoutLink {
  paymentId: string;
  token: string;
}

/**
 * Whether the link opens a payment's page: a payment id and the token payments derived for it with the same
 * CHECKOUT_TOKEN_KEY, compared in constant time. Checked before any gRPC call, so random or guessed links
 * cost payments nothing and cannot tell an existing payment from an unknown one.
 */
export function opensCheckout(link: CheckoutLink, tokenKey: string): boolean {
  return isPaymentId(link.paymentId) && isCheckoutToken(tokenKey, link.paymentId, link.token);
}
