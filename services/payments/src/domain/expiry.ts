import { AppError } from '@sika/platform';
import type { PaymentMode } from './payment';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Spec §8: an immediate payment is valid 5 minutes by default, between 1 minute and 24 hours if set. */
export const IMMEDIATE_DEFAULT_VALIDITY_MS = 5 * MINUTE_MS;
export const IMMEDIATE_MIN_VALIDITY_MS = MINUTE_MS;
export const IMMEDIATE_MAX_VALIDITY_MS = 24 * HOUR_MS;
/** Spec §8: an on-delivery payment needs expires_at, at most 30 days ahead. */
export const ON_DELIVERY_MAX_VALIDITY_MS = 30 * DAY_MS;
/**
 * The gateway checked the bounds against its own clock a moment earlier; this much slack keeps a request it
 * accepted at the edge of a bound (and small clock differences between hosts) from failing here.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 30_000;

function outOfBounds(message: string): AppError {
  return new AppError('parameter_invalid', message, { param: 'expires_at' });
}

/** The payment's deadline: the default for immediate payments, else the requested one within its bounds. */
export function resolveExpiresAt(mode: PaymentMode, requested: Date | undefined, now: Date): Date {
  const nowMs = now.getTime();
  if (mode === 'on_delivery') {
    if (requested === undefined) {
      throw new AppError('parameter_missing', 'expires_at is required for on_delivery payments.', {
        param: 'expires_at',
      });
    }
    const at = requested.getTime();
    if (at <= nowMs) throw outOfBounds('expires_at must be in the future.');
    if (at > nowMs + ON_DELIVERY_MAX_VALIDITY_MS + CLOCK_SKEW_TOLERANCE_MS) {
      throw outOfBounds('expires_at must be at most 30 days ahead for on_delivery payments.');
    }
    return requested;
  }
  if (requested === undefined) return new Date(nowMs + IMMEDIATE_DEFAULT_VALIDITY_MS);
  const at = requested.getTime();
  if (at < nowMs + IMMEDIATE_MIN_VALIDITY_MS - CLOCK_SKEW_TOLERANCE_MS) {
    throw outOfBounds('expires_at must be at least 1 minute ahead for immediate payments.');
  }
  if (at > nowMs + IMMEDIATE_MAX_VALIDITY_MS + CLOCK_SKEW_TOLERANCE_MS) {
    throw outOfBounds('expires_at must be at most 24 hours ahead for immediate payments.');
  }
  return requested;
}

/** A payment is past its deadline from expires_at on, even before the scheduler records it. */
export function isPastDeadline(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}
