import type { CheckoutPayment } from '../domain/payment';

/**
 * payments, as the hosted page uses it. Failures are AppErrors with payments' codes (resource_missing,
 * alias_unknown, too_many_attempts, payment_already_final, parameter_invalid, service_unavailable).
 */
export interface PaymentsPort {
  /** The payment id is the capability the merchant handed to the customer: no other credential. */
  getCheckoutPayment(paymentId: string): Promise<CheckoutPayment>;
  /** A new attempt whose request leaves at once for the customer's bank. */
  startAttempt(paymentId: string, customerAlias: string): Promise<CheckoutPayment>;
}
