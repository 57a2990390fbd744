import { AppError, randomBase62 } from '@sika/platform/pure';
import type { RandomBytes } from '@sika/platform/pure';

/** 32 base62 characters carry about 190 bits. */
export const WEBHOOK_SECRET_RANDOM_LENGTH = 32;

export const WEBHOOK_SECRET_PATTERN = /^whsec_[0-9A-Za-z]{32,}$/;

/** A new signing secret, `whsec_` and 32 random base62 characters (spec §5.4). */
export function generateWebhookSecret(random?: RandomBytes): string {
  return `whsec_${randomBase62(WEBHOOK_SECRET_RANDOM_LENGTH, random)}`;
}

/** How long a rolled secret may keep signing beside the new one at most: 7 days, as Stripe's roll offers. */
export const MAX_PREVIOUS_SECRET_SECONDS = 7 * 24 * 60 * 60;

/**
 * When the secret being replaced stops signing: `seconds` after `now`, or null (at once) for 0 or none.
 * parameter_invalid on `expire_previous_after_seconds` beyond 7 days.
 */
export function previousSecretExpiry(now: Date, seconds: number | undefined): Date | null {
  if (seconds === undefined || seconds === 0) return null;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_PREVIOUS_SECRET_SECONDS) {
    throw new AppError(
      'parameter_invalid',
      `expire_previous_after_seconds must be a whole number of seconds from 0 to ${MAX_PREVIOUS_SECRET_SECONDS} (7 days).`,
      { param: 'expire_previous_after_seconds' },
    );
  }
  return new Date(now.getTime() + seconds * 1000);
}

/** A secret replaced by a roll, still signing until `expiresAt`. */
export interface PreviousSecret {
  secret: string;
  expiresAt: Date;
}

/** The secrets a delivery made at `at` is signed with: the current one, then the previous one until it expires. */
export function signingSecrets(current: string, previous: PreviousSecret | null, at: Date): string[] {
  return previous !== null && at < previous.expiresAt ? [current, previous.secret] : [current];
}
