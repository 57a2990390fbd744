import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';

/**
 * The `Service-Signature` value of spec §5.5: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
 * keyed with the endpoint's whole secret (`whsec_…` included). Computed at each attempt with the time of
 * that attempt, so a retry hours later still passes the receiver's 5-minute freshness check. With several
 * secrets (the new one and, while a roll's overlap lasts, the previous one), one `v1` entry per secret in
 * that order, as Stripe does: a receiver accepts the header when any entry verifies with its secret.
 */
export function signatureHeader(secrets: readonly string[], rawBody: string, signedAt: Date): string {
  const timestamp = Math.floor(signedAt.getTime() / 1000);
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex')}`,
  );
  return [`t=${timestamp}`, ...signatures].join(',');
}
