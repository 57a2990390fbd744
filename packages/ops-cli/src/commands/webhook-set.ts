import type { Services } from '../services';

export interface WebhookSet {
  merchant_id: string;
  livemode: boolean;
  webhook_url: string;
  webhook_secret: string;
}

/** Registers or replaces the endpoint of the mode; the dispatcher keeps its secret when only the URL changes. */
export async function setWebhook(
  services: Services,
  { merchantId, livemode, url }: { merchantId: string; livemode: boolean; url: string },
): Promise<WebhookSet> {
  const { endpoint } = await services.setEndpoint({ scope: { merchantId, livemode }, url });
  if (endpoint === undefined) throw new Error('webhook-dispatcher answered SetEndpoint without an endpoint');
  return {
    merchant_id: merchantId,
    livemode,
    webhook_url: endpoint.url ?? url,
    webhook_secret: endpoint.secret,
  };
}

export function describeWebhookSet(result: WebhookSet): string {
  const mode = result.livemode ? 'Live' : 'Test';
  return [
    `${mode} webhook endpoint of ${result.merchant_id}: ${result.webhook_url}`,
    `${mode} webhook secret: ${result.webhook_secret}`,
  ].join('\n');
}
