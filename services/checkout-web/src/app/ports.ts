import type { RateLimitDecision } from '@sika/platform';

import type { CheckoutPayment } from '../domain/payment';

/**
 * payments, as the hosted page uses it. Failures are AppErrors with payments' codes (resource_missing,
 * alias_unknown, too_many_attempts, payment_already_final, parameter_invalid, service_unavailable).
 */
export interface PaymentsPort {
  /** Called only for a link whose token checked out (see domain/checkout-link.ts). */
  getCheckoutPayment(paymentId: string): Promise<CheckoutPayment>;
  /** A new attempt whose request leaves at once for the customer's bank. */
  startAttempt(paymentId: string, customerAlias: string): Promise<CheckoutPayment>;
}

/** Alias submissions per client address. */
export interface SubmissionLimiter {
  /** Counts one submission; undefined when the limiter cannot tell (the submission goes through). */
  hit(clientAddress: string): Promise<RateLimitDecision | undefined>;
}
