import type { Services } from '../services';
import { ServiceCallError } from '../services';

export interface MerchantCreated {
  merchant_id: string;
  name: string;
  livemode: false;
  secret_key: string;
  webhook_secret: string;
  webhook_url: string | null;
}

/**
 * The merchant was created but its webhook endpoint was not: the test key printed nowhere is lost, so the
 * message says how to finish (set the endpoint, renew the key).
 */
export class PartiallyCreatedError extends Error {
  override readonly name = 'PartiallyCreatedError';

  constructor(merchantId: string, webhookUrl: string | undefined, cause: ServiceCallError) {
    const urlOption = webhookUrl === undefined ? '' : ` --url ${webhookUrl}`;
    super(
      `merchant ${merchantId} was created, but its test webhook endpoint was not: ${cause.message}\n` +
        `Finish with: sika-ops webhook:set --merchant ${merchantId} --mode test${urlOption} ` +
        `&& sika-ops merchant:renew-key --merchant ${merchantId} --mode test`,
      { cause },
    );
  }
}

/** A merchant with its test secret key and its test webhook endpoint (whose secret the dispatcher makes). */
export async function createMerchant(
  services: Services,
  { name, webhookUrl }: { name: string; webhookUrl: string | undefined },
): Promise<MerchantCreated> {
  const { merchant, testSecretKey } = await services.createMerchant({ name });
  if (merchant === undefined) throw new Error('merchants answered CreateMerchant without a merchant');
  let endpoint;
  try {
    ({ endpoint } = await services.setEndpoint({
      scope: { merchantId: merchant.id, livemode: false },
      ...(webhookUrl === undefined ? {} : { url: webhookUrl }),
    }));
  } catch (error) {
    throw error instanceof ServiceCallError
      ? new PartiallyCreatedError(merchant.id, webhookUrl, error)
      : error;
  }
  if (endpoint === undefined) throw new Error('webhook-dispatcher answered SetEndpoint without an endpoint');
  return {
    merchant_id: merchant.id,
    name: merchant.name,
    livemode: false,
    secret_key: testSecretKey,
    webhook_secret: endpoint.secret,
    webhook_url: endpoint.url ?? null,
  };
}

export function describeMerchantCreated(result: MerchantCreated): string {
  return [
    `Merchant ${result.merchant_id} created: ${result.name}`,
    `Test secret key (shown once, store it now): ${result.secret_key}`,
    `Test webhook endpoint: ${result.webhook_url ?? 'none yet (set it with sika-ops webhook:set)'}`,
    `Test webhook secret: ${result.webhook_secret}`,
  ].join('\n');
}
