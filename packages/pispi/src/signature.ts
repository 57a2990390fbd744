import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The header of the participant's callbacks. The document defines it as "Signature HMAC-SHA256 du corps de la
 * requête", computed with the secret shared at webhook registration (`WebhookCreationResponse.secret`). It
 * does not name an encoding; its example is hexadecimal, so the signature is the lowercase hex digest of the
 * raw body bytes, and the secret is used as its UTF-8 bytes.
 */
export const SIGNATURE_HEADER = 'X-Signature';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** The X-Signature value of a body: hex HMAC-SHA256 of exactly the bytes sent. */
export function signBody(rawBody: string | Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Whether `signature` (the X-Signature header as received) is the HMAC of `rawBody` under `secret`.
 * Compares in constant time; a missing or malformed header is simply not valid.
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  secret: string,
  signature: string | undefined,
): boolean {
  const received = signature?.trim();
  if (received === undefined || !HEX_SHA256.test(received)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(received, 'hex'), expected);
}
