import { createHmac, timingSafeEqual } from 'node:crypto';

/** CHECKOUT_TOKEN_KEY, shared by payments (which builds checkout_url) and checkout-web (which checks it). */
export const CHECKOUT_TOKEN_KEY_MIN_LENGTH = 32;

/** 32 base64url characters: 192 bits of the HMAC, beyond any guessing. */
const TOKEN_LENGTH = 32;

/**
 * The secret part of a payment's checkout_url, as Stripe's client_secret: HMAC-SHA256 of the payment id under
 * CHECKOUT_TOKEN_KEY, base64url, truncated. Derived rather than stored, so no schema holds it, and only the
 * two services with the key can make or check one: the payment id alone (in webhooks, logs, support
 * tickets) no longer opens the hosted page.
 */
export function checkoutTokenOf(key: string, paymentId: string): string {
  return createHmac('sha256', key)
    .update(`sika-checkout-v1:${paymentId}`)
    .digest('base64url')
    .slice(0, TOKEN_LENGTH);
}

/** Whether `token` is the payment's, compared in constant time. */
export function isCheckoutToken(key: string, paymentId: string, token: string): boolean {
  const expected = Buffer.from(checkoutTokenOf(key, paymentId));
  const presented = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
