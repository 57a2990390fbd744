import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The receiver's side of spec §5.5, written independently of the dispatcher's code: parse
 * `t=<timestamp>,v1=<hex>[,v1=<hex>…]` (several `v1` entries while a rolled secret overlaps, as Stripe sends
 * them), recompute HMAC-SHA256 over `<t>.<raw body>` with the endpoint secret, accept when any entry matches
 * in constant time, and reject a timestamp more than 5 minutes away from `now`. Returns the timestamp.
 */
export function verifySignature(
  header: string | undefined,
  rawBody: string,
  secret: string,
  now: Date,
): number {
  const match = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(header ?? '');
  if (match === null) throw new Error(`malformed Service-Signature: ${header}`);
  const [, timestamp = '', entries = ''] = match;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > 300)
    throw new Error('signature timestamp too old');
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  const signatures = entries.split(',v1=').slice(1);
  if (!signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected)))
    throw new Error('signature mismatch');
  return Number(timestamp);
}

/** How many `v1` entries the header carries: one per secret signing. */
export function signatureCount(header: string | undefined): number {
  return (header ?? '').split(',').filter((part) => part.startsWith('v1=')).length;
}
