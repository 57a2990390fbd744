import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';

/**
 * The `Service-Signature` value of spec §5.5: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
 * keyed with the endpoint's whole secret (`whsec_…` included). Computed at each attempt with the time of
 * that attempt, so a retry hours later still passes the receiver's 5-minute freshness check.
 */
export function signatureHeader(secret: string, rawBody: string, signedAt: Date): string {
  const timestamp = Math.floor(signedAt.getTime() / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}
