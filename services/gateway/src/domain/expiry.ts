/** Bounds of `expires_at` (spec §8), measured from the moment the request is validated. */
export const EXPIRY_BOUNDS = {
  immediateMinMs: 60_000,
  immediateMaxMs: 24 * 3_600_000,
  onDeliveryMaxMs: 30 * 86_400_000,
} as const;

/** The payment modes of spec §2.2, in the order the OpenAPI document lists them. */
export const PAYMENT_MODES = ['immediate', 'on_delivery'] as const;
export type PaymentModeName = (typeof PAYMENT_MODES)[number];

export interface ExpiryProblem {
  code: 'parameter_missing' | 'parameter_invalid';
  message: string;
}

/**
 * What is wrong with `expires_at` for this mode, if anything. Immediate payments may omit it (payments
 * applies its 5-minute default); on-delivery payments must set it, in the future and at most 30 days ahead.
 */
export function expiryProblem(
  mode: PaymentModeName,
  expiresAt: Date | undefined,
  now: Date,
): ExpiryProblem | undefined {
  const delayMs = expiresAt === undefined ? undefined : expiresAt.getTime() - now.getTime();
  if (mode === 'on_delivery') {
    if (delayMs === undefined) {
      return { code: 'parameter_missing', message: 'expires_at is required when mode is on_delivery.' };
    }
    if (delayMs <= 0 || delayMs > EXPIRY_BOUNDS.onDeliveryMaxMs) {
      return {
        code: 'parameter_invalid',
        message: 'expires_at must be in the future and at most 30 days from now for an on_delivery payment.',
      };
    }
    return undefined;
  }
  if (
    delayMs !== undefined &&
    (delayMs < EXPIRY_BOUNDS.immediateMinMs || delayMs > EXPIRY_BOUNDS.immediateMaxMs)
  ) {
    return {
      code: 'parameter_invalid',
      message: 'expires_at must be between 1 minute and 24 hours from now for an immediate payment.',
    };
  }
  return undefined;
}
