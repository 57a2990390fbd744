import type { Services } from '../services';

export interface KeyRenewed {
  merchant_id: string;
  livemode: boolean;
  secret_key: string;
}

/** A new secret key for the mode; the previous one stops working at once. */
export async function renewKey(
  services: Services,
  { merchantId, livemode }: { merchantId: string; livemode: boolean },
): Promise<KeyRenewed> {
  const { secretKey } = await services.renewSecretKey({ merchantId, livemode });
  return { merchant_id: merchantId, livemode, secret_key: secretKey };
}

export function describeKeyRenewed(result: KeyRenewed): string {
  const mode = result.livemode ? 'Live' : 'Test';
  return [
    `${mode} secret key of ${result.merchant_id} renewed; the previous one no longer works.`,
    `${mode} secret key (shown once, store it now): ${result.secret_key}`,
  ].join('\n');
}
