import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A bearer secret for a browser (session cookie, CSRF token, reset link): 32 random bytes, base64url. Only
 * its SHA-256 is stored where it must be looked up, so a read of the database cannot be replayed.
 */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What `newSecretToken` makes: 43 base64url characters. */
export const isSecretTokenShape = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two tokens in a time that does not depend on where they first differ. */
export function sameToken(expected: string | undefined, given: unknown): boolean {
  if (expected === undefined || typeof given !== 'string' || expected.length === 0) return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(given);
  return left.length === right.length && timingSafeEqual(left, right);
}
