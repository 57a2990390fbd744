import { randomBase62 } from '@sika/platform/pure';
import type { RandomBytes } from '@sika/platform/pure';

/** 32 base62 characters carry about 190 bits. */
export const WEBHOOK_SECRET_RANDOM_LENGTH = 32;

export const WEBHOOK_SECRET_PATTERN = /^whsec_[0-9A-Za-z]{32,}$/;

/** A new signing secret, `whsec_` and 32 random base62 characters (spec §5.4). */
export function generateWebhookSecret(random?: RandomBytes): string {
  return `whsec_${randomBase62(WEBHOOK_SECRET_RANDOM_LENGTH, random)}`;
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
