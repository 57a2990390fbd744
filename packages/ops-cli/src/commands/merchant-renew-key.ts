import type { Services } from '../services';

export interface KeyRenewed {
  merchant_id: string;
  livemode: boolean;
  secret_key: string;
  /** Until when the previous key works (ISO 8601); null when it stopped at once. */
  previous_expires_at: string | null;
}

/** A new secret key for the mode; the previous one stops at once, or after the overlap asked (up to 7 days). */
export async function renewKey(
  services: Services,
  {
    merchantId,
    livemode,
    expirePreviousAfterSeconds,
  }: { merchantId: string; livemode: boolean; expirePreviousAfterSeconds: number | undefined },
): Promise<KeyRenewed> {
  const { secretKey, previousExpiresAt } = await services.renewSecretKey({
    merchantId,
    livemode,
    ...(expirePreviousAfterSeconds !== undefined && { expirePreviousAfterSeconds }),
  });
  return {
    merchant_id: merchantId,
    livemode,
    secret_key: secretKey,
    previous_expires_at: previousExpiresAt?.toISOString() ?? null,
  };
}

export function describeKeyRenewed(result: KeyRenewed): string {
  const mode = result.livemode ? 'Live' : 'Test';
  return [
    result.previous_expires_at === null
      ? `${mode} secret key of ${result.merchant_id} renewed; the previous one no longer works.`
      : `${mode} secret key of ${result.merchant_id} renewed; the previous one works until ${result.previous_expires_at}.`,
    `${mode} secret key (shown once, store it now): ${result.secret_key}`,
  ].join('\n');
}
