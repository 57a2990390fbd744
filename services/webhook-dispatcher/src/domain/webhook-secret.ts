import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 32 base62 characters carry about 190 bits. */
export const WEBHOOK_SECRET_RANDOM_LENGTH = 32;

export const WEBHOOK_SECRET_PATTERN = /^whsec_[0-9A-Za-z]{32,}$/;

/** Bytes at or above 248 (= 4 × 62) are skipped so that `byte % 62` is uniform. */
const UNBIASED_BYTE_LIMIT = 248;

/** A new signing secret, `whsec_` and 32 random base62 characters (spec §5.4). */
export function generateWebhookSecret(random: (size: number) => Buffer = randomBytes): string {
  let body = '';
  while (body.length < WEBHOOK_SECRET_RANDOM_LENGTH) {
    for (const byte of random(WEBHOOK_SECRET_RANDOM_LENGTH)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      body += BASE62[byte % 62];
      if (body.length === WEBHOOK_SECRET_RANDOM_LENGTH) break;
    }
  }
  return `whsec_${body}`;
}
