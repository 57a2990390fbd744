import { AppError } from './errors';

/**
 * How long a replaced credential (a webhook secret, a secret key) may keep working beside the new one at most:
 * 7 days, as Stripe's roll offers.
 */
export const MAX_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

/**
 * When the credential being replaced stops: `seconds` after `now`, or null (at once) for 0 or none.
 * parameter_invalid on `expire_previous_after_seconds` beyond 7 days.
 */
export function previousCredentialExpiry(now: Date, seconds: number | undefined): Date | null {
  if (seconds === undefined || seconds === 0) return null;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_OVERLAP_SECONDS) {
    throw new AppError(
      'parameter_invalid',
      `expire_previous_after_seconds must be a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS} (7 days).`,
      { param: 'expire_previous_after_seconds' },
    );
  }
  return new Date(now.getTime() + seconds * 1000);
}
