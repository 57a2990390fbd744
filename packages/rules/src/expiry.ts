/** The payment modes of the contract, in the order the OpenAPI document lists them. */
export const PAYMENT_MODES = ['immediate', 'on_delivery'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long a payment may wait for its customer (API reference, "Limits"): an immediate payment 5 minutes
 * by default, between 1 minute and 24 hours when `expires_at` is set; an on-delivery payment needs
 * `expires_at`, at least 24 hours and at most 30 days ahead. The 24 hours are PI-SPI's: a payer may accept an
 * invoice and pay it later only when its dateLimiteReponse is at least 24 h away (API Business), and an
 * on-delivery payment is exactly that promise.
 */
export const EXPIRY_BOUNDS = {
  immediateDefaultMs: 5 * MINUTE_MS,
  immediateMinMs: MINUTE_MS,
  immediateMaxMs: 24 * HOUR_MS,
  onDeliveryMinMs: 24 * HOUR_MS,
  onDeliveryMaxMs: 30 * DAY_MS,
} as const;

export interface ExpiryProblem {
  code: 'parameter_missing' | 'parameter_invalid';
  message: string;
}

/**
 * What is wrong with a requested `expires_at` for this mode, if anything. `toleranceMs` widens the bounds:
 * a service that checks again after the gateway, on another host's clock, must not refuse what the gateway
 * accepted a moment earlier at the edge of a bound.
 */
export function expiryProblem(
  mode: PaymentMode,
  requested: Date | undefined,
  now: Date,
  toleranceMs = 0,
): ExpiryProblem | undefined {
  const delayMs = requested === undefined ? undefined : requested.getTime() - now.getTime();
  if (mode === 'on_delivery') {
    if (delayMs === undefined) {
      return { code: 'parameter_missing', message: 'expires_at is required when mode is on_delivery.' };
    }
    if (
      delayMs < EXPIRY_BOUNDS.onDeliveryMinMs - toleranceMs ||
      delayMs > EXPIRY_BOUNDS.onDeliveryMaxMs + toleranceMs
    ) {
      return {
        code: 'parameter_invalid',
        message:
          'expires_at must be between 24 hours and 30 days from now for an on_delivery payment: the ' +
          'customer can accept it and pay later only with at least 24 hours left (PI-SPI).',
      };
    }
    return undefined;
  }
  if (
    delayMs !== undefined &&
    (delayMs < EXPIRY_BOUNDS.immediateMinMs - toleranceMs ||
      delayMs > EXPIRY_BOUNDS.immediateMaxMs + toleranceMs)
  ) {
    return {
      code: 'parameter_invalid',
      message: 'expires_at must be between 1 minute and 24 hours from now for an immediate payment.',
    };
  }
  return undefined;
}

/** The deadline of a new payment: the one requested, or the default of an immediate payment. */
export function defaultExpiresAt(now: Date): Date {
  return new Date(now.getTime() + EXPIRY_BOUNDS.immediateDefaultMs);
}

/** A payment is past its deadline from `expires_at` on, even before a scheduler records it. */
export function isPastDeadline(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}

/**
 * The least time a customer needs to answer a request-to-pay in their bank's app. A new attempt on a payment
 * that expires sooner is refused: its request would die before anyone could validate it.
 */
export const MIN_ANSWER_WINDOW_MS = 30_000;

/** Whether a new request-to-pay may still leave for this payment. */
export function leavesTimeToAnswer(expiresAt: Date, now: Date): boolean {
  return expiresAt.getTime() - now.getTime() >= MIN_ANSWER_WINDOW_MS;
}
